#include "event_poll.h"

#include <errno.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

const uint32_t taptrace_poll_in = EPOLLIN;
const uint32_t taptrace_poll_out = EPOLLOUT;
const uint32_t taptrace_poll_error = EPOLLERR;
const uint32_t taptrace_poll_hang_up = EPOLLHUP;
const uint32_t taptrace_poll_read_hang_up = EPOLLRDHUP;

int taptrace_poll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int taptrace_poll_control(int poll, int operation, int descriptor, uint32_t events, uint64_t data) {
  static const int operations[] = {EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL};
  if (operation < 0 || operation > 2) {
    errno = EINVAL;
    return -1;
  }
  struct epoll_event event = {.events = events, .data = {.u64 = data}};
  return epoll_ctl(poll, operations[operation], descriptor, &event);
}

int taptrace_poll_wait(int poll, struct taptrace_poll_event *events, int capacity, int timeout) {
  struct epoll_event ready[64];
  if (capacity > 64) capacity = 64;
  int count = epoll_wait(poll, ready, capacity, timeout);
  for (int index = 0; index < count; index++) {
    events[index].events = ready[index].events;
    events[index].data = ready[index].data.u64;
  }
  return count;
}

int taptrace_event_descriptor(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

int taptrace_socket_pair(int descriptors[2]) {
  return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, descriptors);
}
