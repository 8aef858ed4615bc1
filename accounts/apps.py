from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from . import (
            backends,  # noqa: F401  (connects the cached user's invalidation)
            checks,  # noqa: F401  (registers the deploy check of Redis)
        )
