from django.apps import AppConfig


class GroupsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "groups"
    verbose_name = "groups"

    def ready(self) -> None:
        from scoring import plugins

        from . import signals, versions  # noqa: F401  (a group's version; players are members)
        from .plugin import PLUGIN

        plugins.register(PLUGIN)
