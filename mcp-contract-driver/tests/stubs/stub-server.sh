#!/bin/sh
# A scriptable stand-in for an MCP stdio server that behaves (mode `ok`) or
# misbehaves in one specific way, for the driver's and the CLI's tests.
#
# usage: sh stub-server.sh MODE [PIDFILE]
#   PIDFILE: the script appends its own pid (and any child's) to it, so tests
#   can check that nothing is left running.
#
# The client sorts keys, so a request line starts with {"id":N,...}.

mode="$1"
pidfile="$2"
[ -n "$pidfile" ] && echo $$ >> "$pidfile"

reply() { printf '%s\n' "$1"; }
id_of() { printf '%s' "$1" | sed -n 's/^{"id":\([0-9][0-9]*\),.*/\1/p'; }
init_result() {
  reply "{\"jsonrpc\":\"2.0\",\"id\":$1,\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"stub\",\"version\":\"0.0.1\"}}}"
}
tool() {
  printf '{"name":"%s","description":"%s","inputSchema":{"type":"object","properties":{"a":{"type":"integer"}}}%s}' "$1" "$2" "$3"
}

case "$mode" in
  exit-early)
    echo "stub: loading configuration" >&2
    echo "fatal: missing config file /etc/stub.toml" >&2
    exit 3
    ;;
  garbage)
    echo "stub: starting up" >&2
    echo "Server listening on stdio"
    sleep 30
    ;;
  not-jsonrpc)
    read -r line
    reply '{"hello": "world"}'
    sleep 30
    ;;
  silent)
    echo "stub: waiting for a database that never comes" >&2
    sleep 300 &
    [ -n "$pidfile" ] && echo $! >> "$pidfile"
    wait
    ;;
  stubborn)
    # Ignores SIGTERM and stdin closing: only SIGKILL stops it.
    trap '' TERM
    echo "stub: ignoring SIGTERM" >&2
    while :; do sleep 1; done
    ;;
  init-error)
    while IFS= read -r line; do
      case "$line" in
        *'"method":"server/discover"'*)
          reply "{\"jsonrpc\":\"2.0\",\"id\":$(id_of "$line"),\"error\":{\"code\":-32601,\"message\":\"method not found\"}}"
          ;;
        *)
          echo "stub: rejecting the client: invalid token" >&2
          reply "{\"jsonrpc\":\"2.0\",\"id\":$(id_of "$line"),\"error\":{\"code\":-32603,\"message\":\"invalid token\"}}"
          sleep 30
          ;;
      esac
    done
    ;;
esac

# The remaining modes answer initialize and then differ in tools/list.
# `slow-*`: start up slowly (longer than the driver's discover probe),
# then behave as `ok` / `stateless`.
case "$mode" in
  slow-*)
    echo "stub: starting slowly" >&2
    sleep 2
    ;;
esac
while IFS= read -r line; do
  id=$(id_of "$line")
  case "$line" in
    *'"method":"server/discover"'*)
      # A 2025-era server: the stateless revision's method is unknown,
      # unless the mode is `stateless` (MCP 2026-07-28); `ignore-discover`
      # never answers it (as some servers do with unknown methods).
      case "$mode" in
        stateless|slow-stateless)
          reply "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"resultType\":\"complete\",\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{},\"prompts\":{\"listChanged\":true}},\"serverInfo\":{\"name\":\"stub\",\"version\":\"9.9.9\"},\"instructions\":\"Add first.\",\"ttlMs\":60000,\"cacheScope\":\"public\"}}"
          ;;
        ignore-discover) ;;
        *)
          reply "{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}"
          ;;
      esac
      ;;
    *'"method":"initialize"'*)
      init_result "$id"
      ;;
    *'"method":"prompts/list"'*)
      case "$line" in
        *'io.modelcontextprotocol/protocolVersion":"2026-07-28"'*)
          reply "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"resultType\":\"complete\",\"ttlMs\":5,\"prompts\":[{\"name\":\"greet\",\"arguments\":[{\"name\":\"who\",\"required\":true}]}]}}"
          ;;
        *)
          reply "{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{\"code\":-32600,\"message\":\"missing _meta protocol version\"}}"
          ;;
      esac
      ;;
    *'"method":"notifications/initialized"'*)
      reply '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"stub ready"}}'
      ;;
    *'"method":"tools/list"'*)
      case "$mode" in
        list-error)
          echo "stub: tools are not ready yet" >&2
          reply "{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{\"code\":-32603,\"message\":\"tools unavailable\"}}"
          ;;
        cursor-loop)
          reply "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"tools\":[],\"nextCursor\":\"again\"}}"
          ;;
        bad-tool)
          reply "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"tools\":[{\"description\":\"no name\",\"inputSchema\":{}}]}}"
          ;;
        ok|stateless|ignore-discover|slow-ok|slow-stateless)
          case "$line" in
            *'"cursor":"page-2"'*)
              reply "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"tools\":[$(tool fail 'always fails')]}}"
              ;;
            *)
              # A server-to-client request and a notification before the answer.
              reply '{"jsonrpc":"2.0","id":"srv-1","method":"ping"}'
              reply '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}'
              reply ""
              reply "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"_meta\":{\"requestedAt\":\"$(date +%s%N)\"},\"ttlMs\":1000,\"tools\":[$(tool add 'adds' ',"execution":{"taskSupport":"forbidden"},"x-owner":"team-a"'),$(tool boom 'breaks')],\"nextCursor\":\"page-2\"}}"
              ;;
          esac
          ;;
      esac
      ;;
    *'"method":"tools/call"'*)
      case "$line" in
        *'"name":"add"'*)
          reply "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"sum\\\": 3}\"}],\"structuredContent\":{\"sum\":3,\"note\":null}}}"
          ;;
        *'"name":"fail"'*)
          reply "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"isError\":true,\"content\":[{\"type\":\"text\",\"text\":\"nothing was executed\"}],\"structuredContent\":{\"error_code\":\"STALE_TOOL_SCHEMA\"}}}"
          ;;
        *)
          reply "{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{\"code\":-32602,\"message\":\"unknown tool\"}}"
          ;;
      esac
      ;;
  esac
done
