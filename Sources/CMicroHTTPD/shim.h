#ifndef TAPTRACE_CMICROHTTPD_SHIM_H
#define TAPTRACE_CMICROHTTPD_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_get_daemon_info and MHD_get_connection_info are variadic, so Swift does
 * not import them; these inline wrappers expose the few queries we need. */

static inline unsigned int taptrace_mhd_connection_status(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
  return info == NULL ? 0 : info->http_status;
}

/* Size of the request line plus headers as received, or 0 when unknown. */
static inline size_t taptrace_mhd_request_header_size(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
  return info == NULL ? 0 : info->header_size;
}

/* The connection's socket, or -1 when unknown. */
static inline int taptrace_mhd_connection_fd(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info == NULL ? -1 : info->connect_fd;
}

#endif
