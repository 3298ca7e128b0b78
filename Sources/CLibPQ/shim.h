// libpq (Debian's libpq-dev), the PostgreSQL client library of TapTraceStorePostgres.
#include <libpq-fe.h>
