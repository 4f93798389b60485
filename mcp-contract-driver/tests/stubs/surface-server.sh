#!/bin/sh
# A stdio MCP server that publishes whatever a directory holds, for the
# consumer tests: DIR/version (serverInfo.version), DIR/tools (the
# `tools` array of tools/list, on one line) and, optional, DIR/stderr
# (printed to stderr, then the server exits 1 before answering).
#
# usage: sh surface-server.sh DIR

dir="$1"
if [ -f "$dir/stderr" ]; then
  cat "$dir/stderr" >&2
  exit 1
fi
version=$(cat "$dir/version")
tools=$(cat "$dir/tools")
id_of() { printf '%s' "$1" | sed -n 's/^{"id":\([0-9][0-9]*\),.*/\1/p'; }
while IFS= read -r line; do
  id=$(id_of "$line")
  case "$line" in
    *'"method":"server/discover"'*)
      printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\n' "$id"
      ;;
    *'"method":"initialize"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"surface","version":"%s"}}}\n' "$id" "$version"
      ;;
    *'"method":"tools/list"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":%s}}\n' "$id" "$tools"
      ;;
    *'"id":'*)
      printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\n' "$id"
      ;;
  esac
done
