"""Players unique per session by their name's key (NFC, case folded), not by the
exact name: "René" and "RENÉ" were two players on SQLite. Existing names are
put in NFC; a later player whose key clashes with an earlier one in the same
session gets " (2)" (" (3)" …) after the name, so no round loses its player."""

import unicodedata

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from scoring.engine.names import player_key

    Player = apps.get_model("scoring", "Player")
    taken: dict[int, set[str]] = {}
    for player in Player.objects.order_by("session_id", "position", "id").iterator():
        keys = taken.setdefault(player.session_id, set())
        name = " ".join(unicodedata.normalize("NFC", player.name).split()) or "?"
        base, suffix = name, 1
        while player_key(name) in keys:
            suffix += 1
            tail = f" ({suffix})"
            name = base[: 40 - len(tail)] + tail
        keys.add(player_key(name))
        player.name = name
        player.name_key = player_key(name)
        player.save(update_fields=["name", "name_key"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0005_round_change_rules_action")]

    operations = [
        migrations.RemoveConstraint(model_name="player", name="unique_player_name_in_session"),
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=160),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("session", "name_key"), name="unique_player_key_in_session"
            ),
        ),
    ]
