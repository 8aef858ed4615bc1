from django.apps import AppConfig


class CallbreakConfig(AppConfig):
    """Call Break: the `callbreak-game/1` document, its scores, ranks and money
    (docs/callbreak.md). The engine (`callbreak/engine/`) is pure Python."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "callbreak"
    verbose_name = "Call Break"

    def ready(self) -> None:
        from .purse import register

        register()  # its games count in a group's purse (groups/purse.py)
