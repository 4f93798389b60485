#!/bin/sh
# A server that answers initialize and then attacks the client's memory or
# patience on `tools/list`, for the driver's bound tests
# (tests/hostile_server.rs).
#
# usage: sh hostile-server.sh MODE PIDFILE
#   PIDFILE: the pids of the script and of anything it starts, so the test
#   can check that the whole process group was stopped.

mode="$1"
pidfile="$2"
echo $$ >> "$pidfile"

init='{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"hostile","version":"0.0.1"}}}'

if [ "$mode" = stderr-flood ]; then
  # Never answers; writes to stderr as fast as it can.
  yes 'stderr noise from a server that logs far too much' >&2 &
  echo $! >> "$pidfile"
fi

if [ "$mode" = huge-pages ]; then
  big=$(head -c 1000000 /dev/zero | tr '\0' a)
fi

i=0
while IFS= read -r line; do
  case "$line" in
    *'"method":"initialize"'*)
      [ "$mode" = stderr-flood ] || printf '%s\n' "$init"
      ;;
    *'"method":"tools/list"'*)
      i=$((i + 1))
      id=$((i + 1))
      case "$mode" in
        long-line)
          # A line that never ends.
          printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"' "$id"
          exec tr '\0' a < /dev/zero
          ;;
        endless-notifications)
          exec yes '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"spam"}}'
          ;;
        ping-flood)
          # Requests the client must answer, while never reading its stdin.
          exec yes '{"jsonrpc":"2.0","id":"srv","method":"ping"}'
          ;;
        paging-forever)
          printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"t%s","inputSchema":{"type":"object"}}],"nextCursor":"c%s"}}\n' "$id" "$i" "$i"
          ;;
        huge-pages)
          printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"t%s","description":"%s","inputSchema":{"type":"object"}}],"nextCursor":"c%s"}}\n' "$id" "$i" "$big" "$i"
          ;;
      esac
      ;;
  esac
done
