#ifndef TAPTRACE_CEPOLL_SHIM_H
#define TAPTRACE_CEPOLL_SHIM_H

/* epoll and eventfd, which Swift's Glibc module does not include: the connection relay of
 * TapTraceHTTP waits on them. Linux only, as the rest of the server. */
#include <sys/epoll.h>
#include <sys/eventfd.h>

#endif
