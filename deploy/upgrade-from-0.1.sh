#!/bin/sh
# Upgrade a judge installed by the first release (0.1.0, 2026-11-22, schema 0007) to this one, in
# place: as root, from this release's checkout (README, "Upgrading from the first release"):
#
#   sh deploy/upgrade-from-0.1.sh [--user payola] [--old-user judge] [--systemd | --no-systemd]
#
# That release ran the judge as the user "judge" (/etc/judge group judge, the data directory
# 0700 judge), with an optional cron job (/etc/cron.d/judge, "judge tick" as judge) and its
# logrotate file, and had no backup, db, status or --version commands. This one runs as "payola"
# (a local user named like the judge's address would take judge@DOMAIN into its mailbox whenever
# Postfix's entry for it went missing), with systemd timers for the tick and a daily backup.
# In order, each step safe to run again:
#   1. the old cron job and logrotate file are moved out of /etc (cron runs no more old ticks),
#      and the judge (and judge-web, if installed) stopped;
#   2. a copy of the stopped judge's data directory, settings and those two files, as they were,
#      in /var/lib/judge-backups/before-upgrade-<time>/ (restore it with cp -a, and the old release);
#   3. the user payola (if missing), and the data directory, /var/log/judge and the settings' group
#      given to it (modes kept);
#   4. this release installed into /opt/judge (pip), and the database upgraded as payola ("database
#      upgraded from 0007 to ...") by the new judge, which reads the settings as it will;
#   5. with systemd: the new units (judge, judge-web if it was installed, and the tick and backup
#      timers) installed, enabled and started; without: this release's cron job (as payola) and
#      logrotate file installed, and the line that starts the judge printed.
# It prints what is left to you: the old user, removed only once nothing of yours needs it. A
# PostgreSQL database used as a role named like the old user is refused at the start, with the
# two commands that give it to the new one.
#
# --root DIR runs it on a system mounted at DIR (its /etc, /var, /opt); the tests use it, with
# --user and --old-user the tester's own user.
set -eu

user=payola old=judge root="" systemd=auto
checkout=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: $0 [--user NAME] [--old-user NAME] [--systemd | --no-systemd] [--root DIR]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --user) [ $# -ge 2 ] || usage; user=$2; shift 2 ;;
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
data=$(read_setting data-dir) database=$(read_setting database)
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
fi

step "2. a copy of the data, the settings and the old files as they were: $saved"
cp -a "$data" "$saved/data"
cp -a "$config" "$saved/judge.toml"
echo "to go back: stop the judge, put $saved/data back as $data (cp -a), and install the first release"

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
