from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from . import (
            checks,  # noqa: F401  (registers the deploy check of Redis)
            signals,  # noqa: F401  (a new password or a deactivation ends log-ins)
        )
