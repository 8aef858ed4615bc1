from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Marriage scoring"

    def ready(self) -> None:
        from .selectors import versions  # noqa: F401  (connects the one rule that moves a session's version)
