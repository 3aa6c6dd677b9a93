"""Forum search on a PostgreSQL full-text index.

Every post keeps its search vector (its topic's title, weight A, and its body, weight B,
English stemming) in ``search_vector``, indexed with GIN. The database keeps it current
itself: a trigger on posts (a new post, a body edited, a post moved) and one on topics (a
title changed), so every way of writing (the services, the admin, a bulk load) is covered.

The column is added everywhere; the triggers, the filling of existing posts, the index and
the column's storage in the row exist only on PostgreSQL (on SQLite search matches words, and the column stays empty).
"""

from django.contrib.postgres.search import SearchVectorField
from django.db import migrations

VECTOR = (
    "setweight(to_tsvector('english'::regconfig, coalesce({title}, '')), 'A') || "
    "setweight(to_tsvector('english'::regconfig, coalesce({body}, '')), 'B')"
)

CREATE = [
    f"""
CREATE FUNCTION forums_post_search_vector() RETURNS trigger AS $$
BEGIN
    NEW.search_vector := {
        VECTOR.format(title="(SELECT title FROM forums_topic WHERE id = NEW.topic_id)", body="NEW.body")
    };
    RETURN NEW;
END
$$ LANGUAGE plpgsql""",
    """CREATE TRIGGER forums_post_search_vector
    BEFORE INSERT OR UPDATE OF body, topic_id ON forums_post
    FOR EACH ROW EXECUTE FUNCTION forums_post_search_vector()""",
    f"""CREATE FUNCTION forums_topic_title_search_vector() RETURNS trigger AS $$
BEGIN
    UPDATE forums_post SET search_vector = {VECTOR.format(title="NEW.title", body="body")}
    WHERE topic_id = NEW.id;
    RETURN NULL;
END
$$ LANGUAGE plpgsql""",
    """CREATE TRIGGER forums_topic_title_search_vector
    AFTER UPDATE OF title ON forums_topic
    FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title)
    EXECUTE FUNCTION forums_topic_title_search_vector()""",
    # Kept in the row (not moved out to the TOAST table, where the bodies go): a search
    # reads thousands of vectors, and one read from the TOAST table costs more than the test.
    "ALTER TABLE forums_post ALTER COLUMN search_vector SET STORAGE MAIN",
    f"""UPDATE forums_post AS p SET search_vector = {VECTOR.format(title="t.title", body="p.body")}
FROM forums_topic AS t WHERE t.id = p.topic_id""",
    "CREATE INDEX forums_post_search_vector_gin ON forums_post USING gin (search_vector)",
]

DROP = [
    "ALTER TABLE forums_post ALTER COLUMN search_vector SET STORAGE EXTENDED",
    "DROP INDEX IF EXISTS forums_post_search_vector_gin",
    "DROP TRIGGER IF EXISTS forums_topic_title_search_vector ON forums_topic",
    "DROP FUNCTION IF EXISTS forums_topic_title_search_vector()",
    "DROP TRIGGER IF EXISTS forums_post_search_vector ON forums_post",
    "DROP FUNCTION IF EXISTS forums_post_search_vector()",
]


def on_postgresql(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            for sql in statements:
                schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("forums", "0002_forums_for_the_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="post",
            name="search_vector",
            field=SearchVectorField(editable=False, null=True),
        ),
        migrations.RunPython(on_postgresql(CREATE), on_postgresql(DROP), elidable=False),
    ]
