#!/usr/bin/env bash
# The suite once for each day of the week: the fast lane and the browser tests run under libfaketime with the
# clock moved to each of the next seven days (one offset for every process the tests start, browsers and
# servers too), so a test that depends on the day it runs (a booking N days ahead landing on a provider's day
# off) fails here rather than on CI's calendar. SQLite only: PostgreSQL's clock is the server's and cannot be moved. The timing
# gates are left out (they measure time). `make test-week`.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v faketime >/dev/null || { echo "test-week: needs faketime (apt-get install faketime)"; exit 2; }
unset TEST_DATABASE_URL
status=0
# Each of the next seven days at HOUR o'clock (default 10) in New York, the zone of the demo's providers and of
# the test browsers; DAYS="3 4" runs only those (0 is today).
for offset in ${DAYS:-0 1 2 3 4 5 6}; do
  target=$(TZ=America/New_York date -d "today +${offset} days ${HOUR:-10}:00" +%s)
  echo "== clock moved to $(TZ=America/New_York date -d "@${target}" '+%A %F %H:%M %Z')"
  delta=$((target - $(date +%s)))
  ((delta >= 0)) && delta="+${delta}"
  export FAKETIME="${delta}s" LD_PRELOAD=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
  .venv/bin/python -m pytest -q -p no:cacheprovider -n 2 --dist worksteal tests/unit tests/ui tests/api \
    || status=1
  .venv/bin/python -m pytest -q -p no:cacheprovider -n 2 --dist loadfile --no-loadscope-reorder tests/e2e \
    || status=1
  unset FAKETIME LD_PRELOAD
done
exit $status
