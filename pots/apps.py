from django.apps import AppConfig


class PotsConfig(AppConfig):
    """Pot hands (Teen Patti / Flash, In-Between): the `pot-session/1` document
    and its money (docs/callbreak.md). The engine (`pots/engine/`) is pure Python."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "pots"
    verbose_name = "pot hands"

    def ready(self) -> None:
        from .purse import register

        register()  # its sessions count in a group's purse (groups/purse.py)
