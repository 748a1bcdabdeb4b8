#!/bin/bash
# Prints a TCP port that is free on 127.0.0.1 right now (the kernel picks it), for a throwaway server.
set -euo pipefail
exec node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
