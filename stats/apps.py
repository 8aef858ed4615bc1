from django.apps import AppConfig


class StatsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "stats"
    verbose_name = "Statistics"

    def ready(self) -> None:
        from scoring import plugins

        from .plugin import PLUGIN

        plugins.register(PLUGIN)
