# nsd_conf NSD DIR PORT: writes DIR/nsd.conf for the benchmarks. NSD serves
# DIR/inf.nz.zone on 127.0.0.1:PORT with one server process and response
# rate limiting off (it would throttle a benchmark that comes from one
# address). Sourced by bench-dns.sh and bench.sh.
nsd_conf() {
  local nsd=$1 dir=$2 port=$3 rrl=""
  if "$nsd" -v 2>&1 | grep -q -- --enable-ratelimit; then rrl="    rrl-ratelimit: 0"; fi
  cat >"$dir/nsd.conf" <<CONF
server:
    ip-address: 127.0.0.1
    port: $port
    do-ip6: no
    server-count: 1
    username: ""
    chroot: ""
    zonesdir: "$dir"
    pidfile: "$dir/nsd.pid"
    xfrdfile: "$dir/xfrd.state"
    xfrdir: "$dir"
    zonelistfile: "$dir/zone.list"
    database: ""
    hide-version: yes
    verbosity: 1
$rrl

remote-control:
    control-enable: no

zone:
    name: "inf.nz"
    zonefile: "$dir/inf.nz.zone"
CONF
}
