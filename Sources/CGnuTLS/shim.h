#ifndef TAPTRACE_CGNUTLS_SHIM_H
#define TAPTRACE_CGNUTLS_SHIM_H

#include <stddef.h>
#include <sys/types.h>
#include <gnutls/gnutls.h>

/* One request and its whole answer over TLS on the connected socket `fd` (`taptrace health`
 * against a server started with --tls-cert). The server's certificate is not verified: the
 * check asks a server on the same machine whether it answers, and sends nothing secret.
 * Returns the bytes of the answer written to `response` (up to `capacity`), or a negative
 * GnuTLS error code. The socket's own timeouts (SO_RCVTIMEO) bound every read and write: a
 * timeout is GNUTLS_E_AGAIN, an error here, not a reason to try again. */
static inline ssize_t taptrace_tls_exchange(int fd, const char *request, size_t request_length,
                                            char *response, size_t capacity) {
  gnutls_certificate_credentials_t credentials;
  gnutls_session_t session;
  ssize_t result = gnutls_certificate_allocate_credentials(&credentials);
  if (result < 0) return result;
  result = gnutls_init(&session, GNUTLS_CLIENT);
  if (result < 0) { gnutls_certificate_free_credentials(credentials); return result; }
  result = gnutls_set_default_priority(session);
  if (result >= 0) result = gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, credentials);
  if (result >= 0) {
    gnutls_transport_set_int2(session, fd, fd);
    do { result = gnutls_handshake(session); } while (result == GNUTLS_E_INTERRUPTED);
  }
  size_t sent = 0;
  while (result >= 0 && sent < request_length) {
    result = gnutls_record_send(session, request + sent, request_length - sent);
    if (result > 0) sent += (size_t)result;
    else if (result == GNUTLS_E_INTERRUPTED) result = 0;
  }
  size_t received = 0;
  while (result >= 0 && received < capacity) {
    result = gnutls_record_recv(session, response + received, capacity - received);
    if (result > 0) received += (size_t)result;
    else if (result == 0) break;
    else if (result == GNUTLS_E_PREMATURE_TERMINATION) { result = 0; break; }
    else if (result == GNUTLS_E_INTERRUPTED) result = 0;
  }
  gnutls_deinit(session);
  gnutls_certificate_free_credentials(credentials);
  return result < 0 ? result : (ssize_t)received;
}

static inline const char *taptrace_tls_error(ssize_t code) { return gnutls_strerror((int)code); }

#endif
