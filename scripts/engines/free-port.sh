#!/bin/bash
# Prints TCP ports that are free on 127.0.0.1 right now (the kernel picks them), for a throwaway
# server: one by default, or N distinct ones, one a line (`free-port.sh 3`), all held open until
# every one is picked so no two are the same.
set -euo pipefail
exec node -e "
const net = require('net');
const count = Number(process.argv[1] || 1);
const servers = [];
const next = () => {
  if (servers.length === count) {
    console.log(servers.map((s) => s.address().port).join('\n'));
    for (const s of servers) s.close();
    return;
  }
  const s = net.createServer();
  s.listen(0, '127.0.0.1', () => { servers.push(s); next(); });
};
next();
" "${1:-1}"
