#!/bin/sh
# Upgrade a judge installed by the first release (0.1.0, 2026-11-22, schema 0007) to this one, in
# place: as root, from this release's checkout (README, "Upgrading from the first release"):
#
#   sh deploy/upgrade-from-0.1.sh [--user payola] [--old-user judge] [--systemd | --no-systemd]
#                                 [--stop-timeout SECONDS]
#
# That release ran the judge as the user "judge" (/etc/judge group judge, the data directory
# 0700 judge), with an optional cron job (/etc/cron.d/judge, "judge tick" as judge) and its
# logrotate file, and had no backup, db, status or --version commands. This one runs as "payola"
# (a local user named like the judge's address would take judge@DOMAIN into its mailbox whenever
# Postfix's entry for it went missing), with systemd timers for the tick and a daily backup.
# In order, each step safe to run again:
#   1. the old cron job and logrotate file are moved out of /etc (cron runs no more old ticks),
#      and the judge (and judge-web, if installed) stopped, however it was started: systemctl,
#      else its init script (/etc/init.d/judge: sysvinit, OpenRC), runit (sv) or supervisord;
#      then whatever judge process is still at work on this installation (one started by hand,
#      as the first release's guide did without systemd, or a tick) is sent SIGTERM and waited
#      for (--stop-timeout, 60 s). If one is still there, or comes back (something restarts
#      it), or another program has the data open, nothing is copied: the two files go back and
#      it stops, saying which process it is;
#   2. a copy of the stopped judge's data directory, settings, systemd units and those two files,
#      as they were, in /var/lib/judge-backups/before-upgrade-<time>/, with way-back.sh there: the
#      way back to the first release, written for this installation (its owners and groups);
#   3. the user payola (if missing), and the data directory, /var/log/judge and the settings' group
#      given to it (modes kept);
#   4. this release installed into /opt/judge (pip), and the database upgraded as payola ("database
#      upgraded from 0007 to ...") by the new judge, which reads the settings as it will;
#   5. with systemd: the new units (judge, judge-web if it was installed, and the tick and backup
#      timers) installed, enabled and started; without: this release's cron job (as payola) and
#      logrotate file installed (cron and logrotate too, from Debian's packages, when they are
#      not there), and the line that starts the judge printed.
# It prints what is left to you: the old user, removed only once nothing of yours needs it. A
# PostgreSQL database used as a role named like the old user is refused at the start, with the
# two commands that give it to the new one.
#
# --root DIR runs it on a system mounted at DIR (its /etc, /var, /opt); the tests use it, with
# --user and --old-user the tester's own user.
set -eu

user=payola old=judge root="" systemd=auto timeout=60
checkout=$(cd "$(dirname "$0")/.." && pwd)
usage() {
  echo "usage: $0 [--user NAME] [--old-user NAME] [--systemd | --no-systemd] [--stop-timeout SECONDS] [--root DIR]" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --user) [ $# -ge 2 ] || usage; user=$2; shift 2 ;;
    --stop-timeout) [ $# -ge 2 ] || usage; timeout=$2; shift 2 ;;
    --old-user) [ $# -ge 2 ] || usage; old=$2; shift 2 ;;
    --root) [ $# -ge 2 ] || usage; root=$(cd "$2" && pwd); root=${root%/}; shift 2 ;;
    --systemd) systemd=yes; shift ;;
    --no-systemd) systemd=no; shift ;;
    *) usage ;;
  esac
done
if [ "$systemd" = auto ]; then
  if [ -z "$root" ] && [ -d /run/systemd/system ]; then systemd=yes; else systemd=no; fi
fi
etc=$root/etc config=$root/etc/judge/judge.toml venv=$root/opt/judge backups=$root/var/lib/judge-backups
logs=$root/var/log/judge units=$root/etc/systemd/system
step() { printf '== %s\n' "$*"; }
as_user() { if [ "$(id -un)" = "$user" ]; then "$@"; else runuser -u "$user" -- "$@"; fi; }

[ -f "$config" ] || { echo "$config is not there: is this a judge installed by the first release?" >&2; exit 1; }
# data-dir and database, as the settings give them (the first release's example has data-dir).
read_setting() {
  python3 -c 'import sys, tomllib; data = tomllib.load(open(sys.argv[1], "rb")); data = data.get("judge", data)
print(data.get(sys.argv[2], ""))' "$config" "$1"
}
data=$(read_setting data-dir) database=$(read_setting database) port=$(read_setting port)
[ -n "$data" ] || { echo "$config has no data-dir: set it (the first release's example: /var/lib/judge)" >&2; exit 1; }
[ -d "$data" ] || { echo "$data (data-dir in $config) is not there" >&2; exit 1; }
case "$database" in
  postgresql*"://$old@"*|postgresql*"://$old:"*)
    echo "the database is PostgreSQL's, as the role $old, which $user cannot be: first stop the judge" \
         "(systemctl stop judge), make the role $user's (runuser -u postgres -- psql -c 'ALTER ROLE $old" \
         "RENAME TO $user'; with a password, set it again), write $user in place of $old in the database" \
         "line of $config, then run this again" >&2
    exit 1 ;;
esac
cd /  # the judge's user may not enter the folder this was run from

step "1. the old cron job and logrotate file out of /etc; the judge stopped"
when=$(date -u +%Y%m%d-%H%M%S)
saved=$backups/before-upgrade-$when
install -d -m 0700 "$backups" "$saved"
for old_file in cron.d/judge logrotate.d/judge; do
  if [ -f "$etc/$old_file" ]; then
    mv "$etc/$old_file" "$saved/$(echo "$old_file" | tr / -)"
    echo "moved $etc/$old_file to $saved/"
  fi
done
web=no
[ -f "$units/judge-web.service" ] && web=yes
if [ "$systemd" = yes ]; then
  systemctl stop judge.service
  [ "$web" = no ] || systemctl stop judge-web.service
  echo "stopped with systemctl"
elif [ -x "$etc/init.d/judge" ]; then  # sysvinit or OpenRC
  "$etc/init.d/judge" stop || true
  echo "stopped with $etc/init.d/judge stop"
elif [ -e "$etc/service/judge" ] && command -v sv >/dev/null; then  # runit
  sv stop "$etc/service/judge" || true
  echo "stopped with sv stop $etc/service/judge"
elif command -v supervisorctl >/dev/null && supervisorctl status judge >/dev/null 2>&1; then
  supervisorctl stop judge || true
  echo "stopped with supervisorctl stop judge"
fi
# at_work: the processes at work on this installation, one "PID KIND COMMAND" a line, KIND "judge"
# (a judge's command: serve, tick, ... but judge web, which only reads the pages) or "other": a
# command line naming the settings, a file open in the data directory, or the judge's SMTP port.
at_work() {
  python3 - "$config" "$data" "${port:-2525}" <<'FIND'
import os, sys
config, data, port = sys.argv[1], os.path.realpath(sys.argv[2]), int(sys.argv[3])
mine, pid = set(), os.getpid()
while pid > 1:  # this script and its callers are not the judge
    mine.add(pid)
    try:
        pid = int(open(f"/proc/{pid}/stat").read().rpartition(")")[2].split()[1])
    except OSError:
        break
listening = set()
for table in ("/proc/net/tcp", "/proc/net/tcp6"):
    try:
        rows = open(table).read().splitlines()[1:]
    except OSError:
        continue
    for row in rows:
        fields = row.split()
        if fields[3] == "0A" and int(fields[1].rpartition(":")[2], 16) == port:
            listening.add(f"socket:[{fields[9]}]")
for entry in os.listdir("/proc"):
    if not entry.isdigit() or int(entry) in mine:
        continue
    try:
        argv = open(f"/proc/{entry}/cmdline", "rb").read().decode(errors="replace").split("\0")
        links = [os.readlink(f"/proc/{entry}/fd/{fd}") for fd in os.listdir(f"/proc/{entry}/fd")]
    except OSError:
        continue
    holds = any(link == data or link.startswith(data + "/") for link in links)
    if not (config in argv or holds or listening.intersection(links)):
        continue
    words = [os.path.basename(word) for word in argv if word]
    judge = "judge" in words and "web" not in words[words.index("judge"):words.index("judge") + 2]
    print(entry, "judge" if judge else "other", " ".join(" ".join(argv).split()))
FIND
}
refuse() {
  for old_file in cron.d/judge logrotate.d/judge; do
    saved_file="$saved/$(echo "$old_file" | tr / -)"
    [ ! -f "$saved_file" ] || mv "$saved_file" "$etc/$old_file"
  done
  echo "$1; nothing was copied or changed (the cron job and logrotate file are back in $etc). Stop it the way" \
       "it was started, then run this again:" >&2
  at_work | sed 's/^/  pid /' >&2
  exit 1
}
found=$(at_work)
if [ -n "$found" ]; then
  if printf '%s\n' "$found" | grep -q '^[0-9]* other '; then
    refuse "another program has the judge's data open"
  fi
  pids=$(printf '%s\n' "$found" | cut -d' ' -f1 | tr '\n' ' ')
  # alive PID...: whether one of them still runs (a zombie, ended but not yet reaped, does not).  Its state is read
  # once: a process that ends between a look at its stat file and the read of it has gone, not stayed
  alive() {
    for pid in "$@"; do
      state=$(sed 's/.*) \(.\).*/\1/' "/proc/$pid/stat" 2>/dev/null) || continue
      [ "$state" = Z ] || return 0
    done
    return 1
  }
  kill -TERM $pids 2>/dev/null || true
  waited=0
  while alive $pids && [ "$waited" -lt "$timeout" ]; do sleep 1; waited=$((waited + 1)); done
  ! alive $pids || refuse "the judge did not stop within $timeout s of SIGTERM"
  # a supervisor restarts within a second or two (runit 1 s, systemd 0.1 s); watch for five, a loaded
  # machine starting Python slowly
  for _ in 1 2 3 4 5; do
    sleep 1
    [ -z "$(at_work)" ] || refuse "a judge came back after it stopped: something starts it again (its init, a supervisor)"
  done
  echo "stopped with SIGTERM: $pids"
fi

step "2. a copy of the data, the settings and the old files as they were: $saved"
cp -a "$data" "$saved/data"
cp -a "$config" "$saved/judge.toml"
for unit in judge.service judge-web.service; do
  [ ! -f "$units/$unit" ] || { install -d -m 0700 "$saved/units"; cp -a "$units/$unit" "$saved/units/$unit"; }
done
first=$(awk '$1 == "v0.1.0" { print $2 }' "$checkout/deploy/releases")
logs_owner=""
[ ! -d "$logs" ] || logs_owner=$(stat -c %U:%G "$logs")
cat > "$saved/way-back.sh" <<BACK
#!/bin/sh
# The way back to the first release, written by deploy/upgrade-from-0.1.sh for this installation as
# it was before the upgrade of $when. As root: sh $saved/way-back.sh
# The database is taken down to the first release's schema (0007) in place, by this release's judge,
# so every game, sheet and mail since the upgrade is kept; then the owners, groups and files of the
# first release are put back, that release is installed (commit $first, v0.1.0) and started.
# $saved/data is the data directory as it was before the upgrade, left untouched.
set -eu
echo "== 1. the new judge stopped"
if [ "$systemd" = yes ]; then
  systemctl disable --now judge.service judge-tick.timer judge-backup.timer
  [ "$web" = no ] || systemctl stop judge-web.service
else
  rm -f "$etc/cron.d/judge" "$etc/logrotate.d/judge"
  for pid in \$(pgrep -f -- "judge serve --config $config" || true); do kill -TERM "\$pid"; done
  while pgrep -f -- "judge serve --config $config" >/dev/null; do sleep 1; done
fi
echo "== 2. the database taken down to schema 0007 (every game and mail kept)"
as_user() { if [ "\$(id -un)" = "$user" ]; then "\$@"; else runuser -u "$user" -- "\$@"; fi; }
as_user "$venv/bin/judge" db downgrade --yes --to 0007 --config "$config"
version=\$(as_user "$venv/bin/judge" db version --config "$config" | sed -n 's/.*: schema \([0-9]*\);.*/\1/p')
[ "\$version" = 0007 ] || { echo "the database is at schema \$version, not 0007" >&2; exit 1; }
echo "== 3. the first release's owners, groups and files"
chown -R "$(stat -c %U:%G "$data")" "$data"
chgrp "$(stat -c %G "$etc/judge")" "$etc/judge"
cp -p "$saved/judge.toml" "$config"
[ -z "$logs_owner" ] || chown -R "$logs_owner" "$logs"
for old_file in cron.d/judge logrotate.d/judge; do
  saved_file="$saved/\$(echo "\$old_file" | tr / -)"
  [ ! -f "\$saved_file" ] || cp -p "\$saved_file" "$etc/\$old_file"
done
if [ "$systemd" = yes ]; then
  rm -f "$units/judge-tick.service" "$units/judge-tick.timer" "$units/judge-backup.service" "$units/judge-backup.timer"
  for unit in judge.service judge-web.service; do
    if [ -f "$saved/units/\$unit" ]; then cp -p "$saved/units/\$unit" "$units/\$unit"; else rm -f "$units/\$unit"; fi
  done
  systemctl daemon-reload
fi
echo "== 4. the first release into $venv, built from a copy of its commit (nothing of a newer build)"
source=\$(mktemp -d)
trap 'rm -rf "\$source"' EXIT  # the copy removed however the script ends: an install that fails too
git -c safe.directory="$checkout" -C "$checkout" archive "$first" | tar -x -C "\$source"
"$venv/bin/pip" install --quiet "\$source[postgres]"
echo "== 5. the first release's judge started"
if [ "$systemd" = yes ]; then
  systemctl enable --now judge.service
  [ "$web" = no ] || systemctl enable --now judge-web.service
else
  echo "start it as the first release's guide did: runuser -u $old -- $venv/bin/judge serve --config $config &"
fi
BACK
echo "the way back to the first release, should you need it: sh $saved/way-back.sh"

step "3. the user $user, and its files"
if ! getent passwd "$user" >/dev/null; then
  useradd --system --home-dir /var/lib/judge --shell /usr/sbin/nologin "$user"
fi
chown -R "$user:$user" "$data"
chgrp "$user" "$etc/judge" "$config"
if [ -d "$logs" ]; then chown -R "$user:$user" "$logs"; else install -d -m 0700 -o "$user" -g "$user" "$logs"; fi
chown "$user:$user" "$backups"

step "4. this release into $venv, and the database upgraded"
if [ -x "$venv/bin/pip" ]; then
  rm -rf "$checkout/build"  # what an earlier build left there would be installed with this release
  "$venv/bin/pip" install --quiet --upgrade "$checkout[postgres]"
else
  echo "$venv/bin/pip is not there: install this release as README step 2 says, then run this again" >&2
  exit 1
fi
as_user "$venv/bin/judge" db upgrade --config "$config"  # reads the settings as this release does, too

step "5. the new release's services"
if [ "$systemd" = yes ]; then
  for unit in judge.service judge-tick.service judge-tick.timer judge-backup.service judge-backup.timer; do
    install -m 0644 "$checkout/deploy/$unit" "$units/$unit"
  done
  [ "$web" = no ] || install -m 0644 "$checkout/deploy/judge-web.service" "$units/judge-web.service"
  systemctl daemon-reload
  systemctl enable --now judge.service judge-tick.timer judge-backup.timer
  [ "$web" = no ] || systemctl enable --now judge-web.service
  echo "started: judge, judge-tick.timer, judge-backup.timer$([ "$web" = no ] || echo ', judge-web')"
else
  missing=""
  command -v cron >/dev/null || command -v crond >/dev/null || missing="cron"
  command -v logrotate >/dev/null || missing="${missing:+$missing }logrotate"
  if [ -n "$missing" ] && [ -z "$root" ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
    echo "installed $missing from Debian's packages: the tick, the backup and the log rotation run from them"
  elif [ -n "$missing" ]; then
    echo "Warning: $missing is not installed here: install it, or the deadline tick and the daily backup" \
         "($etc/cron.d/judge) and the log rotation ($etc/logrotate.d/judge) never run" >&2
  fi
  install -m 0644 "$checkout/deploy/judge.cron" "$etc/cron.d/judge"
  install -m 0644 "$checkout/deploy/judge.logrotate" "$etc/logrotate.d/judge"
  echo "installed $etc/cron.d/judge (tick and backup, as $user) and $etc/logrotate.d/judge; start the judge:"
  echo "  setsid -f runuser -u $user -- sh -c 'exec /opt/judge/bin/judge serve --config /etc/judge/judge.toml \\"
  echo "      --log-file /var/log/judge/serve.log 2>>/var/log/judge/serve.log' </dev/null >/dev/null"
fi

step "left to you"
if [ "$old" != "$user" ] && getent passwd "$old" >/dev/null; then
  echo "the user $old still exists: once nothing of yours needs it, remove it (userdel $old); until then a" \
       "Postfix without its entry for the judge would put judge@ mail into its mailbox"
fi
echo "check the judge: runuser -u $user -- /opt/judge/bin/judge status --config /etc/judge/judge.toml"
