#!/bin/sh
# Make Postfix hand judge@DOMAIN (and judge+TAG@DOMAIN) to the judge, and take the judge's own
# mail for delivery. Safe to run again: it only adds what is missing. See README.md beside it.
#
#   setup-judge.sh --domain example.org [--judge 127.0.0.1:2525 [--judge 127.0.0.1:2526 ...]]
#                  [--config-dir /etc/postfix]
#
# What it changes, each with postconf (so main.cf never gets a comment after a value):
#   master.cf  a "judge" transport: Postfix's SMTP client, one delivery at a time; with several
#              --judge, each tried in one delivery (smtp_mx_session_limit) and a machine that
#              does not answer given up after 5 s (smtp_connect_timeout)
#   main.cf    transport_maps      + hash:CONFIG/judge_transport   (judge@DOMAIN -> the judge)
#              the recipient check of DOMAIN's address class + hash:CONFIG/judge_recipients
#              (a domain Postfix does not receive yet becomes a virtual mailbox domain whose
#              one address is the judge's, delivered by the judge transport)
#              judge_destination_concurrency_limit = 1
#              recipient_delimiter gets "+" (judge+b12-TAG@DOMAIN is how bounces come back)
#              header_checks       + regexp:CONFIG/judge_header_checks (an Authentication-Results
#              header that names this Postfix, myhostname, is removed from mail as it arrives: the
#              judge believes the one this Postfix's milter writes, with mta-authenticates;
#              headers a milter adds are not subject to header_checks)
# then runs postmap on both maps, "postfix check", and "postfix reload" if Postfix is running.
# Several --judge: judges on one database (README, "Several judges on one database"), tried in
# that order, the next when one does not answer (Postfix 3.5 or later). A virtual alias domain
# is refused: Postfix hands its addresses to other addresses, never to a transport.
# Both tables keep the lines of other domains (a judge set up for another domain before); it warns
# when two domains go to one judge (a judge answers one domain), and when a local user named
# "judge" exists (judge@DOMAIN would land in its mailbox were the transport entry ever missing).
set -eu

domain="" judges="" config=/etc/postfix
usage() { echo "usage: $0 --domain DOMAIN [--judge HOST:PORT ...] [--config-dir DIR]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --domain) [ $# -ge 2 ] || usage; domain=$2; shift 2 ;;
    --judge) [ $# -ge 2 ] || usage; judges="$judges $2"; shift 2 ;;
    --config-dir) [ $# -ge 2 ] || usage; config=$2; shift 2 ;;
    *) usage ;;
  esac
done
[ -n "$domain" ] || usage
domain=$(printf '%s' "$domain" | tr 'A-Z' 'a-z')
nexthop="" host="" port=""
for judge in ${judges:-127.0.0.1:2525}; do
  case "$judge" in
    *:[0-9]*) one=${judge%:*} ;;
    *) echo "--judge must be HOST:PORT" >&2; exit 2 ;;
  esac
  one=${one#\[} one=${one%\]}
  [ -n "$host" ] || { host=$one port=${judge##*:}; }
  nexthop="${nexthop:+$nexthop, }[$one]:${judge##*:}"  # in brackets: the judge's own host, never an MX lookup
done
command -v postconf >/dev/null || { echo "postconf not found: is Postfix installed?" >&2; exit 1; }

pc() { postconf -c "$config" "$@"; }

# listed PARAMETER: whether $domain is in that domain list, literally or through a lookup table.
listed() {
  for item in $(pc -x -h "$1" | tr ',' ' '); do
    case "$item" in
      *:*) postmap -c "$config" -q "$domain" "$item" >/dev/null 2>&1 && return 0 ;;
      *) [ "$(printf '%s' "$item" | tr 'A-Z' 'a-z')" = "$domain" ] && return 0 ;;
    esac
  done
  return 1
}

# add_map PARAMETER MAP: put MAP first in a list of lookup tables, unless it is there already.
add_map() {
  current=$(pc -h "$1")
  case " $current " in *" $2 "*|*" $2,"*|*",$2 "*|*",$2,"*) return 0 ;; esac
  pc -e "$1 = $2${current:+, $current}"
}

# The transport: Postfix's SMTP client, alone (maxproc 1), so mail reaches the judge in order.
pc -M "judge/unix=judge unix - - n - 1 smtp"
pc -P "judge/unix/syslog_name=postfix/judge"
pc -e "judge_destination_concurrency_limit = 1"
# Several judges: one delivery tries each of them (Postfix's default stops after 2 sessions), and
# gives up on a judge whose machine is gone after 5 s (a connection that gets no answer, 30 s by
# default, for every mail); a judge cut off from its database answers 451 within about 30 s and
# Postfix takes that mail to the next judge. One judge: Postfix's defaults.
count=$(printf '%s\n' $judges | grep -c .) || true
if [ "${count:-0}" -gt 1 ]; then
  pc -P "judge/unix/smtp_mx_session_limit=$count" "judge/unix/smtp_connect_timeout=5s"
else
  pc -PX "judge/unix/smtp_mx_session_limit" "judge/unix/smtp_connect_timeout" 2>/dev/null || true
fi

# put_line FILE KEY LINE: LINE in FILE in place of KEY's line, the other keys' lines kept.
put_line() {
  touch "$1"
  awk -v key="$2" '$1 != key' "$1" > "$1.new"
  printf '%s\n' "$3" >> "$1.new"
  mv "$1.new" "$1"
}

# judge@domain must be a valid recipient the way the domain's other addresses are; a domain
# Postfix does not receive yet becomes a virtual mailbox domain (not a virtual alias domain,
# whose addresses Postfix never hands to a transport: "User unknown in virtual alias table").
if listed mydestination; then
  class="local (mydestination)"
elif listed virtual_alias_domains; then
  kept=""
  for item in $(pc -h virtual_alias_domains | tr ',' ' '); do
    [ "$(printf '%s' "$item" | tr 'A-Z' 'a-z')" = "$domain" ] || kept="${kept:+$kept, }$item"
  done
  echo "$domain is a virtual alias domain: Postfix hands its addresses only to other addresses, never to the" \
       "judge's transport, so judge@$domain would bounce. Give the judge a domain of its own" \
       "(setup-judge.sh --domain diplomacy.$domain). If $domain is there for the judge alone (earlier versions" \
       "of this script put it there, and its mail bounced), take it out and run this again:" \
       "postconf -c $config -e 'virtual_alias_domains = $kept'" >&2
  exit 1
elif listed virtual_mailbox_domains; then
  class="virtual mailbox"
elif listed relay_domains; then
  class="relay"
else
  class="virtual mailbox, for the judge alone (new)"
fi

put_line "$config/judge_transport" "judge@$domain" "judge@$domain judge:$nexthop"
put_line "$config/judge_recipients" "judge@$domain" "judge@$domain judge@$domain"
others=$(awk -v key="judge@$domain" '$1 != key { print $1 }' "$config/judge_transport" | tr '\n' ' ')
shared=$(awk -v key="judge@$domain" -v hop="judge:$nexthop" \
  '$1 != key { value = $0; sub(/^[^ \t]+[ \t]+/, "", value); if (value == hop) print $1 }' \
  "$config/judge_transport" | tr '\n' ' ')
postmap -c "$config" "hash:$config/judge_transport"
postmap -c "$config" "hash:$config/judge_recipients"
add_map transport_maps "hash:$config/judge_transport"

# An Authentication-Results header that names this Postfix can only be forged when it comes with
# the mail (RFC 8601, section 5): removed as the mail arrives. Those a milter (OpenDKIM, OpenDMARC)
# adds are not subject to header_checks, and stay.
myhost=$(pc -x -h myhostname)
printf '/^Authentication-Results:.*%s/ IGNORE\n' "$(printf '%s' "$myhost" | sed 's/[.]/\\./g')" \
  > "$config/judge_header_checks"
add_map header_checks "regexp:$config/judge_header_checks"

# judge+TAG@domain is looked up as judge@domain only with "+" among the delimiters.
delimiter=$(pc -h recipient_delimiter)
case "$delimiter" in *+*) ;; *) pc -e "recipient_delimiter = $delimiter+" ;; esac

case "$class" in
  local*) [ -z "$(pc -h local_recipient_maps)" ] || add_map local_recipient_maps "hash:$config/judge_recipients" ;;
  relay) [ -z "$(pc -h relay_recipient_maps)" ] || add_map relay_recipient_maps "hash:$config/judge_recipients" ;;
  *new*)
    current=$(pc -h virtual_mailbox_domains)
    pc -e "virtual_mailbox_domains = ${current:+$current, }$domain"
    add_map virtual_mailbox_maps "hash:$config/judge_recipients" ;;
  *) add_map virtual_mailbox_maps "hash:$config/judge_recipients" ;;
esac

postfix -c "$config" check
if postfix -c "$config" status >/dev/null 2>&1; then
  postfix -c "$config" reload
else
  echo "Postfix is not running: start it (systemctl start postfix; postfix start where there is no systemd)."
fi

limit=$(pc -h message_size_limit)
max_size=262144
if [ "$limit" -ne 0 ] && [ "$limit" -lt "$max_size" ]; then max_size=$limit; fi
cat <<EOF
Postfix hands judge@$domain to the judge at $nexthop ($class domain).

Put these in the judge's settings (judge.toml):
  domain = "$domain"
  host = "$host"
  port = $port
  relay = "127.0.0.1:25"
  max-size = $max_size
  mta-hostname = "$myhost"
EOF
if [ "$limit" -ne 0 ] && [ "$limit" -lt 4194304 ]; then
  echo "Warning: message_size_limit is $limit bytes; results mails with maps run to about 1.2 MB." >&2
fi
if ! pc -h smtpd_relay_restrictions | grep -q permit_mynetworks; then
  echo "Warning: smtpd_relay_restrictions has no permit_mynetworks: give the judge relay-user and relay-password." >&2
fi
case "$nexthop" in
  *,*) echo "Each judge after the first: the same settings, with its own host and port (on this machine:" \
            "systemctl enable --now judge@PORT, README); Postfix tries them in the order given." ;;
esac
if [ -n "$others" ]; then
  echo "Postfix also hands these to a judge, as before: $others(kept)."
fi
if [ -n "$shared" ]; then
  echo "Warning: $shared(another domain) goes to the same judge at $nexthop, which answers only one domain:" \
       "run a second judge on another port for it (setup-judge.sh --domain ... --judge 127.0.0.1:2526)." >&2
fi
if getent passwd judge >/dev/null 2>&1; then
  echo "Warning: this machine has a user named judge: were the transport entry ever missing, judge@$domain" \
       "would land in its mailbox unread. The judge runs as payola (README): once it does, remove that user" \
       "(deluser judge)." >&2
fi
