#ifndef TAPTRACE_EVENT_POLL_H
#define TAPTRACE_EVENT_POLL_H

#include <stdint.h>

/* epoll, eventfd and socket pairs for TapTraceHTTP's connection relay. Swift's Glibc module
 * does not include <sys/epoll.h> or <sys/eventfd.h>; a Swift module that includes them beside
 * Glibc hides declarations of the C library from the rest of TapTraceHTTP; and the whole-module
 * build loses SOCK_STREAM once a second file names it. So they are wrapped here, with plain
 * types only (epoll_event is a packed struct). Linux only, as the server. */

/* An epoll event: what happened, and the data registered with the descriptor. */
struct taptrace_poll_event {
  uint32_t events;
  uint64_t data;
};

extern const uint32_t taptrace_poll_in;        /* EPOLLIN */
extern const uint32_t taptrace_poll_out;       /* EPOLLOUT */
extern const uint32_t taptrace_poll_error;     /* EPOLLERR */
extern const uint32_t taptrace_poll_hang_up;   /* EPOLLHUP */
extern const uint32_t taptrace_poll_read_hang_up; /* EPOLLRDHUP */

/* A new epoll set (close-on-exec), or -1 with errno set. */
int taptrace_poll_create(void);

/* Adds `descriptor` to the set, or changes or removes it (`operation`: 0 add, 1 change,
 * 2 remove); 0, or -1 with errno set. */
int taptrace_poll_control(int poll, int operation, int descriptor, uint32_t events, uint64_t data);

/* Waits up to `timeout` milliseconds (-1: for ever) for at most `capacity` events; how many
 * arrived, or -1 with errno set. */
int taptrace_poll_wait(int poll, struct taptrace_poll_event *events, int capacity, int timeout);

/* A connected pair of local stream sockets, close-on-exec, in `descriptors`; 0, or -1 with
 * errno set. */
int taptrace_socket_pair(int descriptors[2]);

/* A non-blocking, close-on-exec eventfd counter, or -1 with errno set. */
int taptrace_event_descriptor(void);

#endif
