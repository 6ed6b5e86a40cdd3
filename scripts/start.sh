#!/bin/sh
# `npm start` (and the server workspace's): becomes `node scripts/start.js` (exec, so the server is still the one
# process npm started) with jemalloc as its memory allocator where Debian's libjemalloc2 is installed, and installs
# it first when it can (root with apt-get), as start.js does the slide readers. Why: libvips' threads (sharp runs one
# per core here, see sharp-setup.ts) fragment glibc's malloc, whose arenas then hold freed memory for good; sharp's
# documentation recommends jemalloc for that. The allocator is chosen when a process starts, hence this shell.
here=$(dirname "$0")

jemalloc() {
  for lib in /usr/lib/*/libjemalloc.so.2 /usr/local/lib/libjemalloc.so.2 /usr/lib/libjemalloc.so.2; do
    if [ -f "$lib" ]; then
      echo "$lib"
      return
    fi
  done
}

lib=$(jemalloc)
if [ -z "$lib" ] && [ "$(uname)" = Linux ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo 'Installing the memory allocator: apt-get install -y libjemalloc2'
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends libjemalloc2 >/dev/null 2>&1 ||
      { apt-get update -qq && apt-get install -y -qq --no-install-recommends libjemalloc2 >/dev/null; }
    lib=$(jemalloc)
  fi
  [ -n "$lib" ] ||
    echo 'jemalloc missing: the server runs on glibc malloc, whose memory grows under many slides; install it with: sudo apt-get install -y libjemalloc2' >&2
fi

case "${LD_PRELOAD:-}" in
  *libjemalloc*) ;;
  *) [ -n "$lib" ] && LD_PRELOAD="$lib${LD_PRELOAD:+:$LD_PRELOAD}" && export LD_PRELOAD ;;
esac
exec node "$here/start.js" "$@"
