from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Marriage scoring"

    def ready(self) -> None:
        from . import auth  # noqa: F401  (connects the cached user's invalidation)
