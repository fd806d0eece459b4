"""The SQLite schema, one numbered migration at a time (``PRAGMA user_version``).

Each entry upgrades the schema by one version. Never edit a released entry: append a new one,
and the same logical change to :mod:`bot.service.storage.postgres_schema` under the same
number (``tests/service/test_backends.py`` compares the two schemas).
"""

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: games, seats, the log, snapshots, moderation, settings, preferences and notices.
    (
        """
        CREATE TABLE games (
            id              INTEGER PRIMARY KEY,
            guild_id        INTEGER NOT NULL,
            channel_id      INTEGER NOT NULL,
            kind            TEXT    NOT NULL,
            seed            INTEGER NOT NULL,
            options         TEXT    NOT NULL DEFAULT '{}',
            shuffle_seats   INTEGER NOT NULL DEFAULT 1,
            creator_id      INTEGER NOT NULL,
            status          TEXT    NOT NULL
                CHECK (status IN ('lobby', 'active', 'finished', 'ended', 'error')),
            version         INTEGER NOT NULL DEFAULT 0,
            current_seat    INTEGER,
            waiting_since   INTEGER,
            created_at      INTEGER NOT NULL,
            updated_at      INTEGER NOT NULL,
            started_at      INTEGER,
            finished_at     INTEGER,
            result          TEXT,
            error           TEXT
        )
        """,
        # One open game per channel, enforced by the database itself, so that two processes
        # creating a game in the same channel at the same moment cannot both succeed.
        """
        CREATE UNIQUE INDEX games_open_per_channel ON games (channel_id)
            WHERE status IN ('lobby', 'active', 'error')
        """,
        "CREATE INDEX games_waiting ON games (status, waiting_since)",
        "CREATE INDEX games_guild ON games (guild_id, status)",
        """
        CREATE TABLE seats (
            game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat      INTEGER NOT NULL,
            user_id   INTEGER,
            name      TEXT    NOT NULL,
            is_bot    INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, seat)
        ) WITHOUT ROWID
        """,
        "CREATE UNIQUE INDEX seats_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL",
        "CREATE INDEX seats_by_user ON seats (user_id)",
        """
        CREATE TABLE actions (
            game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq         INTEGER NOT NULL,
            seat        INTEGER NOT NULL,
            user_id     INTEGER,
            source      TEXT    NOT NULL CHECK (source IN ('player', 'bot', 'timeout')),
            action      TEXT    NOT NULL,
            created_at  INTEGER NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE snapshots (
            game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            version     INTEGER NOT NULL,
            state       TEXT    NOT NULL,
            PRIMARY KEY (game_id, version)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE moderation_log (
            id              INTEGER PRIMARY KEY,
            guild_id        INTEGER NOT NULL,
            game_id         INTEGER REFERENCES games (id) ON DELETE SET NULL,
            moderator_id    INTEGER NOT NULL,
            act             TEXT    NOT NULL,
            target_user_id  INTEGER,
            detail          TEXT    NOT NULL DEFAULT '{}',
            created_at      INTEGER NOT NULL
        )
        """,
        "CREATE INDEX moderation_by_guild ON moderation_log (guild_id, id)",
        """
        CREATE TABLE guild_settings (
            guild_id            INTEGER PRIMARY KEY,
            reminder_delay_ms   INTEGER NOT NULL,
            turn_timeout_ms     INTEGER NOT NULL,
            timeout_action      TEXT    NOT NULL CHECK (timeout_action IN ('skip', 'notify')),
            moderator_role_id   INTEGER
        )
        """,
        """
        CREATE TABLE user_prefs (
            user_id         INTEGER PRIMARY KEY,
            dm_reminders    INTEGER NOT NULL DEFAULT 0
        )
        """,
        # A reminder or time-out notice for one waiting turn (game, version, user). It is
        # claimed before it is sent and marked sent afterwards: a process that dies in
        # between leaves a stale claim, which is offered again after a lease.
        """
        CREATE TABLE notices (
            game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            version     INTEGER NOT NULL,
            user_id     INTEGER NOT NULL,
            kind        TEXT    NOT NULL CHECK (kind IN ('reminder', 'timeout')),
            claimed_at  INTEGER NOT NULL,
            sent_at     INTEGER,
            PRIMARY KEY (game_id, version, user_id, kind)
        ) WITHOUT ROWID
        """,
    ),
    # 2: the last version of each game that the bot has shown in its channel, so a turn
    # stored just before a crash is still announced after the restart.
    (
        """
        CREATE TABLE announcements (
            game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            version     INTEGER NOT NULL
        )
        """,
        # Games from before this table were announced as they went.
        "INSERT INTO announcements (game_id, version) SELECT id, version FROM games "
        "WHERE status IN ('active', 'finished')",
    ),
    # 3: the version each channel has seen moves onto the game's row, so the transaction that
    # stores a move mid-turn (which nobody else needs to see) also records it as seen. Old
    # snapshots go: they may have been taken mid-turn, and snapshots now start a turn.
    (
        "ALTER TABLE games ADD COLUMN announced INTEGER NOT NULL DEFAULT 0",
        "UPDATE games SET announced = COALESCE("
        "(SELECT a.version FROM announcements a WHERE a.game_id = games.id), 0)",
        "DROP TABLE announcements",
        "DELETE FROM snapshots",
        "CREATE INDEX games_unannounced ON games (status, updated_at) WHERE version > announced",
    ),
    # 4: where the game's messages are (to update a lobby in place and take the controls off
    # a superseded board), a post that Discord refused (why, how often, when to try again),
    # a digest that checks a snapshot, and the settings added since as one JSON object.
    (
        "ALTER TABLE games ADD COLUMN lobby_message_id INTEGER",
        "ALTER TABLE games ADD COLUMN board_message_id INTEGER",
        "ALTER TABLE games ADD COLUMN post_error TEXT",
        "ALTER TABLE games ADD COLUMN post_failures INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN post_retry_at INTEGER",
        "ALTER TABLE snapshots ADD COLUMN digest TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE guild_settings ADD COLUMN extra TEXT NOT NULL DEFAULT '{}'",
        "CREATE INDEX games_by_creator ON games (creator_id, status)",
    ),
    # 5: a lease on a game for background work that no interaction does (posting a turn the
    # channel missed), so that with several bot processes exactly one process does it: who
    # holds it and until when (ms; 0: nobody). Kept equal with postgres_schema.py.
    (
        "ALTER TABLE games ADD COLUMN lease_holder TEXT",
        "ALTER TABLE games ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0",
    ),
    # 6: games over days: each game's clock (the pace and every seat's time bank) and the
    # next moment a notice of its turn falls due; the thread a game is played in; the game a
    # rematch follows; who sat in a seat a computer took over; each user's time away and how
    # they want to be pinged; ratings per server and game. The notices may now also be the
    # last reminder before the deadline and the warning of a stalled game.
    (
        "ALTER TABLE games ADD COLUMN clock TEXT",
        "ALTER TABLE games ADD COLUMN next_due_at INTEGER",
        "ALTER TABLE games ADD COLUMN thread_id INTEGER",
        "ALTER TABLE games ADD COLUMN rematch_of INTEGER",
        "ALTER TABLE games ADD COLUMN last_move_at INTEGER",
        "UPDATE games SET last_move_at = updated_at",
        "CREATE INDEX games_due ON games (status, next_due_at)",
        "CREATE INDEX games_thread ON games (thread_id)",
        "ALTER TABLE seats ADD COLUMN left_user_id INTEGER",
        "ALTER TABLE user_prefs ADD COLUMN away_start INTEGER",
        "ALTER TABLE user_prefs ADD COLUMN away_until INTEGER",
        "ALTER TABLE user_prefs ADD COLUMN ping TEXT NOT NULL DEFAULT 'channel' "
        "CHECK (ping IN ('channel', 'dm', 'both'))",
        """
        CREATE TABLE notices_6 (
            game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            version     INTEGER NOT NULL,
            user_id     INTEGER NOT NULL,
            kind        TEXT    NOT NULL
                CHECK (kind IN ('reminder', 'final', 'timeout', 'stall')),
            claimed_at  INTEGER NOT NULL,
            sent_at     INTEGER,
            PRIMARY KEY (game_id, version, user_id, kind)
        ) WITHOUT ROWID
        """,
        "INSERT INTO notices_6 SELECT * FROM notices",
        "DROP TABLE notices",
        "ALTER TABLE notices_6 RENAME TO notices",
        """
        CREATE TABLE ratings (
            guild_id    INTEGER NOT NULL,
            kind        TEXT    NOT NULL,
            user_id     INTEGER NOT NULL,
            name        TEXT    NOT NULL,
            rating      REAL    NOT NULL,
            games       INTEGER NOT NULL DEFAULT 0,
            wins        INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (guild_id, kind, user_id)
        ) WITHOUT ROWID
        """,
    ),
    # 7: how well a computer plays its seat ("easy", "normal", "strong"; NULL for a person
    # and for the computers of older games, which play at the server's takeover level).
    ("ALTER TABLE seats ADD COLUMN level TEXT",),
    # 8: claims say whose they are, so that a process taking the place of one that died
    # gives its claims back at once (see bot.service.core): who claimed a notice, and a
    # lease of its own on a computer's turn (a missed post's lease ends when the board is
    # shown, the thinking does not). Kept equal with postgres_schema.py.
    (
        "ALTER TABLE notices ADD COLUMN claimed_by TEXT",
        "ALTER TABLE games ADD COLUMN think_holder TEXT",
        "ALTER TABLE games ADD COLUMN think_until INTEGER NOT NULL DEFAULT 0",
    ),
    # 9: a practice game (``/table learn``) keeps the lessons its learner was taught, a JSON
    # array of the game's lesson keys; NULL for every other game. Kept equal with
    # postgres_schema.py.
    ("ALTER TABLE games ADD COLUMN practice TEXT",),
    # 10: when a user last began opening a practice game, stamped before its thread is made:
    # the cool-down between practice games, and one learner's simultaneous /table learn
    # decided before any of them makes a thread. Kept equal with postgres_schema.py.
    ("ALTER TABLE user_prefs ADD COLUMN practice_begun INTEGER",),
    # 11: a turn its player may still take back (issue 40.5): until when (ms; NULL: none),
    # and what taking it back restores (JSON: the version its turn began at, who played it,
    # the clock before it); and the moves taken back, kept out of the log that replays the
    # game but not forgotten (their turn's actions as they were, and when they were taken
    # back). Kept equal with postgres_schema.py.
    (
        "ALTER TABLE games ADD COLUMN take_back_until INTEGER",
        "ALTER TABLE games ADD COLUMN take_back TEXT",
        """
        CREATE TABLE taken_back (
            game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq            INTEGER NOT NULL,
            seat           INTEGER NOT NULL,
            user_id        INTEGER,
            source         TEXT    NOT NULL,
            action         TEXT    NOT NULL,
            created_at     INTEGER NOT NULL,
            taken_back_at  INTEGER NOT NULL,
            PRIMARY KEY (game_id, taken_back_at, seq)
        ) WITHOUT ROWID
        """,
    ),
    # 12: seasons (issue 45): a season's row (its game, options and pace, its rounds and
    # their length in days, when the first is dealt, its seed, the rounds dealt and closed
    # (their standings told), the round being dealt, the sign-up message, the posts it still
    # owes (a table's hello, a round's standings, the podium) and a lease for its background
    # work), its members (the round they are dealt from, the round they left in) and which
    # game each round's table is. Kept equal with postgres_schema.py.
    (
        """
        CREATE TABLE seasons (
            id              INTEGER PRIMARY KEY,
            guild_id        INTEGER  NOT NULL,
            channel_id      INTEGER  NOT NULL,
            creator_id      INTEGER  NOT NULL,
            kind            TEXT    NOT NULL,
            options         TEXT    NOT NULL DEFAULT '{}',
            pace            TEXT    NOT NULL,
            rounds          INTEGER NOT NULL,
            days            INTEGER NOT NULL,
            first_at        INTEGER  NOT NULL,
            seed            INTEGER  NOT NULL,
            status          TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'over')),
            dealt           INTEGER NOT NULL DEFAULT 0,
            closed          INTEGER NOT NULL DEFAULT 0,
            dealing         TEXT,
            message_id      INTEGER,
            untold          TEXT,
            created_at      INTEGER  NOT NULL,
            lease_holder    TEXT,
            lease_until     INTEGER  NOT NULL DEFAULT 0
        )
        """,
        "CREATE INDEX seasons_by_channel ON seasons (channel_id, status)",
        """
        CREATE TABLE season_members (
            season_id   INTEGER  NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
            user_id     INTEGER  NOT NULL,
            name        TEXT    NOT NULL,
            joined      INTEGER NOT NULL,
            left_round  INTEGER,
            signed_at   INTEGER  NOT NULL,
            PRIMARY KEY (season_id, user_id)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE season_games (
            season_id   INTEGER  NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
            round       INTEGER NOT NULL,
            table_no    INTEGER NOT NULL,
            game_id     INTEGER  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            PRIMARY KEY (season_id, round, table_no)
        ) WITHOUT ROWID
        """,
        "CREATE UNIQUE INDEX season_games_by_game ON season_games (game_id)",
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)
