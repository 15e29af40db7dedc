#!/usr/bin/env bash
# Private MariaDB instance for tests (never touches the system service).
#
#   .ci/mariadb.sh start <dir> <port>   fresh datadir in <dir>, server on 127.0.0.1:<port>,
#                                       database hops_test, user hops/hops; prints the JDBC URL
#   .ci/mariadb.sh stop <dir>           clean shutdown (bounded), then kill as a fallback
#
# Everything lives under <dir>: my.cnf, data/, tmp/, mariadbd.pid, mariadbd.err, mariadbd.out
# and the socket (unless the path is too long for a unix socket, then it goes to /tmp).
set -euo pipefail

START_TIMEOUT=${MARIADB_START_TIMEOUT:-60}
STOP_TIMEOUT=${MARIADB_STOP_TIMEOUT:-60}

log() { printf '[mariadb.sh] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

first_cmd() { # first of the given commands that exists, by absolute path
  local c p
  for c in "$@"; do
    if p=$(command -v "$c" 2>/dev/null); then echo "$p"; return 0; fi
    for p in /usr/sbin/"$c" /usr/bin/"$c" /usr/local/sbin/"$c" /usr/local/bin/"$c"; do
      [[ -x $p ]] && { echo "$p"; return 0; }
    done
  done
  return 1
}

find_tools() {
  MARIADBD=$(first_cmd mariadbd mysqld) || die "mariadbd not found (install mariadb-server)"
  INSTALL_DB=$(first_cmd mariadb-install-db mysql_install_db) || die "mariadb-install-db not found (install mariadb-server)"
  CLIENT=$(first_cmd mariadb mysql) || die "mariadb client not found (install mariadb-client)"
  ADMIN=$(first_cmd mariadb-admin mysqladmin) || die "mariadb-admin not found (install mariadb-client)"
}

abs_dir() { # absolute path of a (possibly not yet existing) directory
  local d=$1
  [[ -n $d ]] || die "empty directory argument"
  mkdir -p -- "$d"
  (cd -- "$d" && pwd -P)
}

socket_path() { # unix socket paths are limited to ~107 bytes
  local dir=$1 s="$1/mariadbd.sock"
  if (( ${#s} > 100 )); then
    s="/tmp/hops-mariadb-$(printf '%s' "$dir" | md5sum | cut -c1-12).sock"
  fi
  echo "$s"
}

cnf_value() { # cnf_value <cnf> <key>: value of key in [mysqld] of our own generated my.cnf
  sed -n "s/^$2[[:space:]]*=[[:space:]]*//p" "$1" | head -n1
}

pid_alive() { [[ -n ${1:-} ]] && kill -0 "$1" 2>/dev/null; }

is_server_pid() { # alive and really a mariadbd/mysqld (not a recycled pid)
  pid_alive "${1:-}" || return 1
  [[ -r /proc/$1/cmdline ]] || return 0
  tr '\0' ' ' <"/proc/$1/cmdline" | grep -q -E 'mariadbd|mysqld'
}

read_pid() { # pid from the pid file, only if that process is alive
  local f=$1/mariadbd.pid p
  [[ -f $f ]] || return 1
  p=$(tr -dc '0-9' <"$f")
  is_server_pid "$p" || return 1
  echo "$p"
}

port_in_use() { # something accepts TCP connections on 127.0.0.1:<port>
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

show_log() {
  local dir=$1 f
  shift
  for f in "$dir/mariadbd.err" "$dir/mariadbd.out" "$@"; do
    if [[ -s $f ]]; then
      log "---- last lines of $f ----"
      tail -n 40 "$f" >&2
    fi
  done
}

do_stop() {
  local dir=$1 cnf sock pid waited
  [[ -d $dir ]] || { log "nothing to stop: $dir does not exist"; return 0; }
  dir=$(cd -- "$dir" && pwd -P)
  cnf=$dir/my.cnf
  pid=$(read_pid "$dir") || pid=""
  if [[ -f $cnf ]]; then
    sock=$(cnf_value "$cnf" socket)
  else
    sock=$(socket_path "$dir")
  fi
  # The pid file may be gone already (crash, or removed during shutdown): fall back to the
  # process started by us, recorded by do_start.
  if [[ -z $pid && -f $dir/mariadbd.launcher.pid ]]; then
    pid=$(tr -dc '0-9' <"$dir/mariadbd.launcher.pid")
    is_server_pid "$pid" || pid=""
  fi
  if [[ -z $pid ]]; then
    log "no running server for $dir"
    rm -f "$dir/mariadbd.pid" "$dir/mariadbd.launcher.pid"
    return 0
  fi
  log "stopping mariadbd pid $pid ($dir)"
  if [[ -S $sock ]]; then
    ADMIN=$(first_cmd mariadb-admin mysqladmin) || ADMIN=""
    if [[ -n $ADMIN ]]; then
      timeout 30 "$ADMIN" --no-defaults --protocol=socket --socket="$sock" -uroot \
        --connect-timeout=5 shutdown >/dev/null 2>&1 || log "mariadb-admin shutdown failed; will signal"
    fi
  fi
  waited=0
  while pid_alive "$pid" && (( waited < STOP_TIMEOUT * 2 )); do
    if (( waited == 10 )) && pid_alive "$pid"; then kill -TERM "$pid" 2>/dev/null || true; fi
    sleep 0.5; waited=$((waited + 1))
  done
  if pid_alive "$pid"; then
    log "mariadbd pid $pid still alive after ${STOP_TIMEOUT}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    waited=0
    while pid_alive "$pid" && (( waited < 20 )); do sleep 0.5; waited=$((waited + 1)); done
    pid_alive "$pid" && die "could not kill mariadbd pid $pid"
  fi
  rm -f "$dir/mariadbd.pid" "$dir/mariadbd.launcher.pid"
  [[ -S $sock ]] && rm -f "$sock"
  log "stopped"
}

do_start() {
  local dir port cnf sock user pid p2 waited
  [[ $# -eq 2 ]] || die "usage: $0 start <dir> <port>"
  [[ $2 =~ ^[0-9]+$ ]] && (( $2 > 0 && $2 < 65536 )) || die "invalid port: $2"
  port=$2
  find_tools
  dir=$(abs_dir "$1")
  [[ $dir != / ]] || die "refusing to use / as the instance directory"

  # Idempotence: stop a server still running from this directory.
  if read_pid "$dir" >/dev/null || [[ -f $dir/mariadbd.launcher.pid ]]; then
    do_stop "$dir"
  fi

  if port_in_use "$port"; then
    die "port $port on 127.0.0.1 is already in use; choose another port"
  fi

  # Fresh state every time: tests must not depend on leftovers.
  rm -rf -- "$dir/data" "$dir/tmp"
  rm -f -- "$dir/mariadbd.err" "$dir/mariadbd.out" "$dir/install-db.log" "$dir/mariadbd.pid"
  mkdir -p -- "$dir/data" "$dir/tmp"
  sock=$(socket_path "$dir")
  rm -f -- "$sock"
  user=$(id -un)
  cnf=$dir/my.cnf
  cat >"$cnf" <<EOF
# generated by .ci/mariadb.sh; private test instance
[mysqld]
user = $user
datadir = $dir/data
tmpdir = $dir/tmp
socket = $sock
pid-file = $dir/mariadbd.pid
log-error = $dir/mariadbd.err
port = $port
bind-address = 127.0.0.1
skip-name-resolve
skip-log-bin
performance_schema = OFF
character-set-server = utf8mb4
transaction-isolation = READ-COMMITTED
max_connections = 1000
default-storage-engine = InnoDB
innodb_buffer_pool_size = 256M
innodb_log_file_size = 64M
innodb_log_buffer_size = 16M
innodb_flush_log_at_trx_commit = 2

[client]
socket = $sock
port = $port
EOF

  log "initializing datadir $dir/data"
  if ! "$INSTALL_DB" --defaults-file="$cnf" --user="$user" --datadir="$dir/data" \
      --auth-root-authentication-method=normal --skip-test-db >"$dir/install-db.log" 2>&1; then
    show_log "$dir" "$dir/install-db.log"
    die "mariadb-install-db failed"
  fi

  log "starting $MARIADBD on 127.0.0.1:$port"
  # Detached: own session, no inherited stdin/stdout, so callers' pipes are not held open.
  setsid "$MARIADBD" --defaults-file="$cnf" </dev/null >"$dir/mariadbd.out" 2>&1 &
  pid=$!
  echo "$pid" >"$dir/mariadbd.launcher.pid"

  waited=0
  while :; do
    if ! pid_alive "$pid"; then
      # setsid may have forked: then follow the server's own pid file.
      if p2=$(read_pid "$dir"); then pid=$p2; echo "$pid" >"$dir/mariadbd.launcher.pid"; continue; fi
      show_log "$dir"
      if grep -q -i 'address already in use' "$dir/mariadbd.err" 2>/dev/null; then
        die "mariadbd could not bind 127.0.0.1:$port (address already in use)"
      fi
      die "mariadbd exited during startup (see log above)"
    fi
    if [[ -S $sock ]] && "$ADMIN" --no-defaults --protocol=socket --socket="$sock" -uroot \
        --connect-timeout=2 ping >/dev/null 2>&1; then
      break
    fi
    if (( waited >= START_TIMEOUT * 2 )); then
      show_log "$dir"
      kill -KILL "$pid" 2>/dev/null || true
      die "mariadbd did not answer within ${START_TIMEOUT}s"
    fi
    sleep 0.5; waited=$((waited + 1))
  done

  log "creating database hops_test and user hops"
  # `hops\_%` matches hops_test, the hops_test_<fork> of each test JVM, and every hops_* database
  # the tests may CREATE/DROP.
  if ! "$CLIENT" --no-defaults --protocol=socket --socket="$sock" -uroot >"$dir/setup.log" 2>&1 <<'SQL'
CREATE DATABASE IF NOT EXISTS hops_test CHARACTER SET utf8mb4;
CREATE USER IF NOT EXISTS 'hops'@'127.0.0.1' IDENTIFIED BY 'hops';
CREATE USER IF NOT EXISTS 'hops'@'localhost' IDENTIFIED BY 'hops';
GRANT ALL PRIVILEGES ON `hops\_%`.* TO 'hops'@'127.0.0.1';
GRANT ALL PRIVILEGES ON `hops\_%`.* TO 'hops'@'localhost';
GRANT ALL PRIVILEGES ON `hops_test`.* TO 'hops'@'127.0.0.1';
GRANT ALL PRIVILEGES ON `hops_test`.* TO 'hops'@'localhost';
GRANT PROCESS ON *.* TO 'hops'@'127.0.0.1';
GRANT PROCESS ON *.* TO 'hops'@'localhost';
FLUSH PRIVILEGES;
SQL
  then
    cat "$dir/setup.log" >&2
    show_log "$dir"
    do_stop "$dir" || true
    die "could not create database/user"
  fi

  # Check the way the tests will connect: TCP on 127.0.0.1 as hops.
  if ! "$CLIENT" --no-defaults --protocol=tcp -h127.0.0.1 -P"$port" -uhops -phops hops_test \
      --connect-timeout=5 -N -e 'SELECT 1' >/dev/null 2>"$dir/setup.log"; then
    cat "$dir/setup.log" >&2
    show_log "$dir"
    do_stop "$dir" || true
    die "server is up but user hops cannot connect over TCP to 127.0.0.1:$port"
  fi

  log "ready: pid $(read_pid "$dir" || echo "$pid"), socket $sock, log $dir/mariadbd.err"
  echo "jdbc:mariadb://127.0.0.1:$port/hops_test"
}

case "${1:-}" in
  start) shift; do_start "$@" ;;
  stop)
    shift
    [[ $# -eq 1 ]] || die "usage: $0 stop <dir>"
    do_stop "$1"
    ;;
  *) die "usage: $0 start <dir> <port> | stop <dir>" ;;
esac
