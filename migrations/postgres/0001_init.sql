-- 0001_init (PostgreSQL): the schema the SQLite migrations 0001-0008 reach, in one step.
--
-- The two engines keep the same data and answer the same way (the store suite runs on both),
-- so this schema follows SQLite's column for column; each engine's migrations are numbered on
-- their own (`schema_migrations` holds this folder's numbers). Conventions as in SQLite:
--   * ids are opaque text ("scn_…", "run_…") made by the binary;
--   * `seq` is an identity column: increasing, never reused, the order of listings and of their
--     cursors;
--   * timestamps are RFC 3339 UTC text with milliseconds, written by the binary from its clock
--     (not now()), so that both engines store the same text;
--   * documents are bytea, byte for byte as the caller gave them; results in `run_results`,
--     shared between runs of a scene with equal results (digest, then the bytes compared);
--   * a scene is deleted in two steps: `deleted_at` hides it and everything it holds from every
--     read, then its rows go (ON DELETE CASCADE from `scenes`);
--   * integers are bigint throughout: the binary sends 64-bit values.

CREATE TABLE scenes (
    seq            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id             text   NOT NULL UNIQUE CHECK (id LIKE 'scn\_%'),
    name           text,
    created_at     text   NOT NULL,
    updated_at     text   NOT NULL,
    latest_version bigint NOT NULL CHECK (latest_version >= 1),
    deleted_at     text
);

CREATE INDEX scenes_being_deleted ON scenes (deleted_at) WHERE deleted_at IS NOT NULL;

CREATE TABLE scene_versions (
    scene_id         text   NOT NULL REFERENCES scenes (id) ON DELETE CASCADE,
    version          bigint NOT NULL CHECK (version >= 1),
    document         bytea  NOT NULL,
    content_hash     text   NOT NULL,
    view_count       bigint NOT NULL CHECK (view_count >= 0),
    window_count     bigint NOT NULL CHECK (window_count >= 0),
    recognizer_count bigint NOT NULL CHECK (recognizer_count >= 0),
    created_at       text   NOT NULL,
    PRIMARY KEY (scene_id, version)
);

-- A version, once written, never changes: new content means a new version.
CREATE FUNCTION scene_versions_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'scene_versions rows are immutable';
END
$$;

CREATE TRIGGER scene_versions_are_immutable
BEFORE UPDATE ON scene_versions
FOR EACH ROW EXECUTE FUNCTION scene_versions_are_immutable();

CREATE TABLE run_results (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    scene_id text   NOT NULL REFERENCES scenes (id) ON DELETE CASCADE,
    digest   bigint,
    encoding text   NOT NULL DEFAULT 'identity' CHECK (encoding IN ('identity', 'zstd')),
    bytes    bytea  NOT NULL
);

CREATE INDEX run_results_by_digest ON run_results (scene_id, digest);

CREATE TABLE runs (
    seq             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id              text   NOT NULL UNIQUE CHECK (id LIKE 'run\_%'),
    scene_id        text   NOT NULL,
    scene_version   bigint NOT NULL,
    created_at      text   NOT NULL,
    request         bytea  NOT NULL,
    result_id       bigint NOT NULL REFERENCES run_results (id),
    first_responder text,
    actions         text   NOT NULL,
    outcome         text   NOT NULL,
    action_count    bigint NOT NULL CHECK (action_count >= 0),
    label           text,
    FOREIGN KEY (scene_id, scene_version)
        REFERENCES scene_versions (scene_id, version) ON DELETE CASCADE
);

-- History, newest first (read backwards); one version's runs in order (replay); one label's
-- runs; and the child key of `result_id`, so that deleting results does not scan `runs`.
CREATE INDEX runs_by_scene_newest ON runs (scene_id, seq);
CREATE INDEX runs_by_scene_version ON runs (scene_id, scene_version, seq);
CREATE INDEX runs_by_scene_label ON runs (scene_id, label, seq) WHERE label IS NOT NULL;
CREATE INDEX runs_by_result ON runs (result_id);

CREATE TABLE screenshots (
    scene_id     text   NOT NULL,
    version      bigint NOT NULL,
    media_type   text   NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg')),
    width        bigint NOT NULL CHECK (width >= 1),
    height       bigint NOT NULL CHECK (height >= 1),
    byte_size    bigint NOT NULL CHECK (byte_size >= 1),
    content_hash text   NOT NULL,
    created_at   text   NOT NULL,
    image        bytea  NOT NULL,
    PRIMARY KEY (scene_id, version),
    FOREIGN KEY (scene_id, version)
        REFERENCES scene_versions (scene_id, version) ON DELETE CASCADE
);
