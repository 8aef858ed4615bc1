from django.apps import AppConfig


class TableConfig(AppConfig):
    """A table of phones: each player's seat link, co-scorers and their invites."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "table"

    def ready(self) -> None:
        from scoring import plugins

        from .plugin import PLUGIN

        plugins.register(PLUGIN)
