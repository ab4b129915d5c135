#!/usr/bin/env bash
# bench-dns: nameport's authoritative DNS against NSD, under dnsperf.
#
# Loads DOMAINS domains (five records each: A, AAAA, MX, TXT at the apex, www
# a CNAME) into a fresh SQLite database, starts `nameport serve --roles dns`
# on it, exports the zone nameport serves (AXFR) as a zone file for NSD,
# checks that both answer a sample of the queries alike, then runs dnsperf
# for DURATION seconds against nameport and then against NSD (RRL off, one
# server process), with the load generator and the server pinned to
# different cores, and prints both rates and their ratio.
#
# Then, signed (issue #21): nameport (which signs online by default) against
# Knot signing the same zone online (mod-onlinesign: its keys, compact
# denial as nameport's), with the DNSSEC OK bit on half the queries. dnsperf
# sets DO on every query or on none (-D), so two dnsperf run at once on the
# load generator's core over the same query file, each with half the
# sockets and half the queries in flight, one with -D and one without; the
# rate is the sum of their answered queries per second (the output gives
# the share with DO: each dnsperf keeps its own queries in flight, so a
# server slower at signed answers answers fewer of them). Skipped, with a
# note, when knotd is not installed (Debian: apt-get install knot).
#
# Run by `make bench-dns` after `make build`. Settings (environment):
#   DURATION=15        seconds of dnsperf per server
#   DOMAINS=10000      domains in the zone
#   QUERIES=200000     lines of the query file (10% names that do not exist)
#   CLIENTS=4          dnsperf -c (sockets)
#   OUTSTANDING=500    dnsperf -q (queries in flight)
#   MAX_QPS=           dnsperf -Q (none: as fast as answers come)
#   LOADGEN_CPU=0      core of dnsperf
#   SERVER_CPU=1       core of the server under test
#   ROUNDS=1           alternate nameport and NSD (then Knot) this many times
#   DNSSEC=1           the signed comparison with Knot (0: skip it)
#   VERIFY_SAMPLE=5000 questions of the query file compared (0: all)
#   NAMEPORT_BIN=bin/nameport
#   KEEP=1             keep the work folder (printed) after the run
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/nsd-conf.sh
. scripts/nsd-conf.sh

DURATION=${DURATION:-15}
DOMAINS=${DOMAINS:-10000}
QUERIES=${QUERIES:-200000}
CLIENTS=${CLIENTS:-4}
OUTSTANDING=${OUTSTANDING:-500}
MAX_QPS=${MAX_QPS:-}
LOADGEN_CPU=${LOADGEN_CPU:-0}
SERVER_CPU=${SERVER_CPU:-1}
ROUNDS=${ROUNDS:-1}
VERIFY_SAMPLE=${VERIFY_SAMPLE:-5000}
DNSSEC=${DNSSEC:-1}
NAMEPORT_BIN=${NAMEPORT_BIN:-bin/nameport}
KEEP=${KEEP:-}

say() { printf 'bench-dns: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

# Tools. Debian keeps nsd in /usr/sbin, which a user's PATH may lack.
NSD=$(command -v nsd || true)
[ -z "$NSD" ] && [ -x /usr/sbin/nsd ] && NSD=/usr/sbin/nsd
missing=()
command -v dnsperf >/dev/null || missing+=(dnsperf)
[ -n "$NSD" ] || missing+=(nsd)
command -v taskset >/dev/null || missing+=(util-linux)
if [ ${#missing[@]} -gt 0 ]; then
  die "missing: ${missing[*]}. Install them (Debian/Ubuntu): apt-get install dnsperf nsd"
fi
KNOTD=$(command -v knotd || true)
[ -z "$KNOTD" ] && [ -x /usr/sbin/knotd ] && KNOTD=/usr/sbin/knotd
if [ "$DNSSEC" = 1 ] && [ -z "$KNOTD" ]; then
  say "knotd not found: the signed comparison is skipped (Debian: apt-get install knot)"
  DNSSEC=0
fi
command -v go >/dev/null || die "go is not installed"
[ -x "$NAMEPORT_BIN" ] || die "$NAMEPORT_BIN not found: run make build first"
"$NAMEPORT_BIN" serve --help 2>&1 | grep -q -- --dns-transfer-allow ||
  die "$NAMEPORT_BIN is older than DNS zone transfers: run make build"

cpus=$(nproc)
if [ "$cpus" -lt 2 ]; then
  say "warning: one CPU only; server and load generator share it"
  LOADGEN_CPU=0 SERVER_CPU=0
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-dns.XXXXXX")
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  if [ -n "$KEEP" ]; then say "work folder kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# stop PID: ends a server this script started, and forgets it.
stop() {
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
  local keep=() pid
  for pid in "${PIDS[@]}"; do [ "$pid" = "$1" ] || keep+=("$pid"); done
  PIDS=("${keep[@]+"${keep[@]}"}")
}

say "building cmd/dnsbench"
go build -o "$WORK/dnsbench" ./cmd/dnsbench
BENCH="$WORK/dnsbench"

say "preparing $DOMAINS domains and $QUERIES queries in $WORK"
"$BENCH" prepare -dir "$WORK" -domains "$DOMAINS" -queries "$QUERIES"

mapfile -t ports < <("$BENCH" ports 4)
[ ${#ports[@]} -eq 4 ] || die "no free ports"
NP_PORT=${ports[0]} HTTP_PORT=${ports[1]} NSD_PORT=${ports[2]} KNOT_PORT=${ports[3]}
NP_ADDR=127.0.0.1:$NP_PORT
NSD_ADDR=127.0.0.1:$NSD_PORT
KNOT_ADDR=127.0.0.1:$KNOT_PORT

start_nameport() {
  taskset -c "$SERVER_CPU" "$NAMEPORT_BIN" serve --roles dns \
    --database-url "sqlite://$WORK/nameport.db" --data-dir "$WORK/data" \
    --dns-addr "$NP_ADDR" --http-addr "127.0.0.1:$HTTP_PORT" \
    --dns-transfer-allow 127.0.0.1 --dns-rrl-rate 0 --log-level warn >>"$WORK/nameport.log" 2>&1 &
  NP_PID=$!
  PIDS+=("$NP_PID")
  "$BENCH" wait -server "$NP_ADDR" -timeout 60s || { cat "$WORK/nameport.log" >&2; die "nameport did not start"; }
}

# NSD serves the exported zone file: one server process, response rate
# limiting off (it would throttle a benchmark that comes from one address).
mkdir -p "$WORK/nsd"
nsd_conf "$NSD" "$WORK/nsd" "$NSD_PORT"

start_nsd() {
  taskset -c "$SERVER_CPU" "$NSD" -d -c "$WORK/nsd/nsd.conf" >>"$WORK/nsd.log" 2>&1 &
  NSD_PID=$!
  PIDS+=("$NSD_PID")
  "$BENCH" wait -server "$NSD_ADDR" -timeout 60s || { cat "$WORK/nsd.log" >&2; die "nsd did not start"; }
}

# Knot signs the zone nameport transferred (which has no DNSKEY: transfers
# are unsigned) online, with keys of its own made at its first start; one
# UDP worker, as NSD has one server process and nameport one core; response
# rate limiting is off unless configured (mod-rrl).
start_knot() {
  mkdir -p "$WORK/knot"
  cp "$WORK/nsd/inf.nz.zone" "$WORK/knot/inf.nz.zone"
  cat >"$WORK/knot/knot.conf" <<CONF
server:
    rundir: "$WORK/knot"
    listen: 127.0.0.1@$KNOT_PORT
    udp-workers: 1
    tcp-workers: 1
    background-workers: 1

database:
    storage: "$WORK/knot"

log:
  - target: stderr
    any: warning

template:
  - id: default
    storage: "$WORK/knot"
    semantic-checks: off
    zonefile-sync: -1
    journal-content: none

zone:
  - domain: inf.nz
    file: inf.nz.zone
    module: mod-onlinesign
CONF
  taskset -c "$SERVER_CPU" "$KNOTD" -c "$WORK/knot/knot.conf" >>"$WORK/knot.log" 2>&1 &
  KNOT_PID=$!
  PIDS+=("$KNOT_PID")
  "$BENCH" wait -server "$KNOT_ADDR" -timeout 60s || { cat "$WORK/knot.log" >&2; die "knotd did not start"; }
}

# cpu_ticks PID: CPU time (user + system, in clock ticks) of a process and
# its descendants (NSD answers from a process it forks, two levels down).
cpu_ticks() {
  local total t child
  # Fields 14 and 15 of stat; the name before them, in parentheses, may
  # hold spaces ("nsd: server 1"), so count from after it.
  total=$(sed 's/.*) //' /proc/"$1"/stat 2>/dev/null | awk '{print $12 + $13}') || total=0
  for child in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
    t=$(cpu_ticks "$child")
    total=$((${total:-0} + t))
  done
  echo "${total:-0}"
}
HZ=$(getconf CLK_TCK)

# run_dnsperf NAME ADDR PID: runs dnsperf against ADDR (served by PID), keeps the
# output in $WORK/dnsperf-NAME-ROUND.txt and prints the answered queries
# per second and the server's CPU use in percent of one core.
run_dnsperf() {
  local out="$WORK/dnsperf-$1-$round.txt" host=${2%:*} port=${2##*:} before after start end
  local args=(-s "$host" -p "$port" -d "$WORK/queries.txt" -l "$DURATION" -c "$CLIENTS" -T 1 -q "$OUTSTANDING" -t 2)
  [ -n "$MAX_QPS" ] && args+=(-Q "$MAX_QPS")
  say "dnsperf against $1 for ${DURATION}s (core $LOADGEN_CPU; server on core $SERVER_CPU)"
  before=$(cpu_ticks "$3")
  start=$(date +%s.%N)
  taskset -c "$LOADGEN_CPU" dnsperf "${args[@]}" >"$out" 2>&1 || { cat "$out" >&2; die "dnsperf failed"; }
  end=$(date +%s.%N)
  after=$(cpu_ticks "$3")
  local qps
  qps=$(awk '/Queries per second:/ {print $4}' "$out")
  [ -n "$qps" ] || { cat "$out" >&2; die "no result from dnsperf"; }
  awk -v q="$qps" -v t=$((after - before)) -v hz="$HZ" -v s="$start" -v e="$end" \
    'BEGIN { printf "%s %.0f\n", q, 100 * t / hz / (e - s) }'
}

# run_dnsperf_do50 NAME ADDR PID: run_dnsperf with DO on half the queries:
# two dnsperf at once (see the top), one with -D. Prints the sum of their
# answered queries per second, the server's CPU use, and the share of the
# answers that were to queries with DO, in per cent.
run_dnsperf_do50() {
  local host=${2%:*} port=${2##*:} before after start end half_c half_q
  half_c=$(((CLIENTS + 1) / 2)) half_q=$(((OUTSTANDING + 1) / 2))
  local args=(-s "$host" -p "$port" -d "$WORK/queries.txt" -l "$DURATION" -c "$half_c" -T 1 -q "$half_q" -t 2)
  [ -n "$MAX_QPS" ] && args+=(-Q "$((MAX_QPS / 2))")
  local plain="$WORK/dnsperf-$1-plain-$round.txt" do="$WORK/dnsperf-$1-do-$round.txt"
  say "dnsperf against $1 for ${DURATION}s, DO on half the queries (two dnsperf on core $LOADGEN_CPU; server on core $SERVER_CPU)"
  before=$(cpu_ticks "$3")
  start=$(date +%s.%N)
  taskset -c "$LOADGEN_CPU" dnsperf "${args[@]}" >"$plain" 2>&1 &
  local p1=$!
  taskset -c "$LOADGEN_CPU" dnsperf "${args[@]}" -D >"$do" 2>&1 &
  local p2=$!
  wait "$p1" || { cat "$plain" >&2; die "dnsperf failed"; }
  wait "$p2" || { cat "$do" >&2; die "dnsperf -D failed"; }
  end=$(date +%s.%N)
  after=$(cpu_ticks "$3")
  local q1 q2
  q1=$(awk '/Queries per second:/ {print $4}' "$plain")
  q2=$(awk '/Queries per second:/ {print $4}' "$do")
  [ -n "$q1" ] && [ -n "$q2" ] || { cat "$plain" "$do" >&2; die "no result from dnsperf"; }
  awk -v a="$q1" -v b="$q2" -v t=$((after - before)) -v hz="$HZ" -v s="$start" -v e="$end" \
    'BEGIN { printf "%.0f %.0f %.0f\n", a + b, 100 * t / hz / (e - s), (a + b > 0) ? 100 * b / (a + b) : 0 }'
}

# signed NAME ADDR: requires that ADDR's answer to a query with DO for a
# name of the zone carries its signature (a server that would not sign
# would be measured doing less). Needs dig (Debian: bind9-dnsutils);
# without it, the check is skipped.
signed() {
  local name
  name=$(awk 'NR == 1 {print $1}' "$WORK/queries.txt")
  if command -v dig >/dev/null; then
    dig +dnssec +norec +time=2 +tries=2 -p "${2##*:}" @"${2%:*}" "$name" A | grep -q 'RRSIG' ||
      die "$1 does not sign its answer to $name A with DO"
  fi
}

# summary FILE: lost queries and response codes of a dnsperf run.
summary() {
  local lost codes
  lost=$(awk '/Queries lost:/ {print $3, $4}' "$1")
  codes=$(sed -n 's/^ *Response codes: *//p' "$1")
  printf 'lost %s; %s' "$lost" "$codes"
}

# Correctness first: nameport and NSD (serving what nameport transferred)
# must answer alike.
start_nameport
"$BENCH" export -server "$NP_ADDR" -zone inf.nz -out "$WORK/nsd/inf.nz.zone"
start_nsd
verify_status=passed
"$BENCH" verify -a "$NP_ADDR" -b "$NSD_ADDR" -names nameport,nsd -queries "$WORK/queries.txt" \
  -sample "$VERIFY_SAMPLE" | tee "$WORK/verify.txt" || verify_status=FAILED
stop "$NSD_PID"

np_qps=() nsd_qps=() np_cpu=() nsd_cpu=()
for round in $(seq 1 "$ROUNDS"); do
  [ "$round" -gt 1 ] && start_nameport
  read -r q c <<<"$(run_dnsperf nameport "$NP_ADDR" "$NP_PID")"
  [ -n "$q" ] || die "the nameport run failed"
  np_qps+=("$q") np_cpu+=("$c")
  stop "$NP_PID"
  start_nsd
  read -r q c <<<"$(run_dnsperf nsd "$NSD_ADDR" "$NSD_PID")"
  [ -n "$q" ] || die "the NSD run failed"
  nsd_qps+=("$q") nsd_cpu+=("$c")
  stop "$NSD_PID"
done

# Signed: nameport and Knot, DO on half the queries.
npdo_qps=() knot_qps=() npdo_cpu=() knot_cpu=() npdo_share=() knot_share=()
if [ "$DNSSEC" = 1 ]; then
  for round in $(seq 1 "$ROUNDS"); do
    start_nameport
    signed nameport "$NP_ADDR"
    read -r q c d <<<"$(run_dnsperf_do50 nameport "$NP_ADDR" "$NP_PID")"
    [ -n "$q" ] || die "the signed nameport run failed"
    npdo_qps+=("$q") npdo_cpu+=("$c") npdo_share+=("$d")
    stop "$NP_PID"
    start_knot
    signed knot "$KNOT_ADDR"
    read -r q c d <<<"$(run_dnsperf_do50 knot "$KNOT_ADDR" "$KNOT_PID")"
    [ -n "$q" ] || die "the Knot run failed"
    knot_qps+=("$q") knot_cpu+=("$c") knot_share+=("$d")
    stop "$KNOT_PID"
  done
fi

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
np=$(median "${np_qps[@]}")
ns=$(median "${nsd_qps[@]}")
ratio=$(awk -v a="$np" -v b="$ns" 'BEGIN { if (b > 0) printf "%.2f", a/b; else print "n/a" }')
# Queries per CPU-second: how much each server spends per query, which
# still compares them when dnsperf, not the server, is the limit.
np_eff=$(awk -v q="$np" -v c="$(median "${np_cpu[@]}")" 'BEGIN { if (c > 0) printf "%.0f", q * 100 / c; else print 0 }')
ns_eff=$(awk -v q="$ns" -v c="$(median "${nsd_cpu[@]}")" 'BEGIN { if (c > 0) printf "%.0f", q * 100 / c; else print 0 }')

echo
echo "DNS benchmark: $DOMAINS domains, $QUERIES queries (10% nonexistent names), ${DURATION}s per run, $ROUNDS round(s)"
echo "dnsperf -c $CLIENTS -T 1 -q $OUTSTANDING${MAX_QPS:+ -Q $MAX_QPS} on core $LOADGEN_CPU; servers on core $SERVER_CPU ($cpus CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg))"
for i in "${!np_qps[@]}"; do
  r=$((i + 1))
  printf '  round %d  nameport %8.0f qps, server CPU %3s%%  (%s)\n' "$r" "${np_qps[$i]}" "${np_cpu[$i]}" "$(summary "$WORK/dnsperf-nameport-$r.txt")"
  printf '  round %d  nsd      %8.0f qps, server CPU %3s%%  (%s)\n' "$r" "${nsd_qps[$i]}" "${nsd_cpu[$i]}" "$(summary "$WORK/dnsperf-nsd-$r.txt")"
done
printf 'nameport: %.0f qps (%s queries per CPU-second)\n' "$np" "$np_eff"
printf 'nsd:      %.0f qps (%s queries per CPU-second)\n' "$ns" "$ns_eff"
echo "ratio:    ${ratio}x NSD (target 0.8x)"
if [ "$DNSSEC" = 1 ]; then
  echo
  echo "Signed, DO on half the queries (two dnsperf, -c $(((CLIENTS + 1) / 2)) -q $(((OUTSTANDING + 1) / 2)) each, one with -D): nameport vs Knot $("$KNOTD" -V 2>&1 | awk '{print $NF}') with mod-onlinesign"
  for i in "${!npdo_qps[@]}"; do
    r=$((i + 1))
    printf '  round %d  nameport %8.0f qps, server CPU %3s%%, %s%% of answers with DO  (%s | -D: %s)\n' "$r" "${npdo_qps[$i]}" "${npdo_cpu[$i]}" \
      "${npdo_share[$i]}" "$(summary "$WORK/dnsperf-nameport-plain-$r.txt")" "$(summary "$WORK/dnsperf-nameport-do-$r.txt")"
    printf '  round %d  knot     %8.0f qps, server CPU %3s%%, %s%% of answers with DO  (%s | -D: %s)\n' "$r" "${knot_qps[$i]}" "${knot_cpu[$i]}" \
      "${knot_share[$i]}" "$(summary "$WORK/dnsperf-knot-plain-$r.txt")" "$(summary "$WORK/dnsperf-knot-do-$r.txt")"
  done
  npdo=$(median "${npdo_qps[@]}")
  kn=$(median "${knot_qps[@]}")
  printf 'nameport-do50: %.0f qps\n' "$npdo"
  printf 'knot-do50:     %.0f qps\n' "$kn"
  echo "ratio-do50:    $(awk -v a="$npdo" -v b="$kn" 'BEGIN { if (b > 0) printf "%.2f", a/b; else print "n/a" }')x Knot (goal 1.0x)"
fi
echo "answers:  $verify_status ($(grep '^verify:' "$WORK/verify.txt" | sed 's/^verify: //' || true))"
[ "$verify_status" = passed ]
