"""The host: what every game has, whatever its kind, in layers by concern (``.importlinter``'s contract
"layers": each imports only those below it).

- `operators`: the operators' tools (the ``judge`` command line, ``judge status``, backups, exports,
  imports and replays, the demo);
- `running`: the judge at work (the daemon, its listener, its deadline workers, the use cases they call);
- `incoming`: a mail in (stored, read line by line, each line answered by its command's handler);
- `hosting`: the host's part of every game (its course, deadlines and silent seats, records) and the
  port the kinds plug into (`hosting.kinds`, `hosting.contract`, `hosting.turn`);
- `outgoing`: a mail out (the outbox, written in the transaction that causes it, and its sender).

Beside them, the ground they all stand on, which imports none of them: the settings (`config`), the
templates, the states of a game (`states`), time zones, the clock, the mailbox of an address, passwords,
the command table's dispatcher, the data directory, the logs, who holds a claim (`claimants`), and the garbage
collector's settings in a long-lived process (`collector`)."""
