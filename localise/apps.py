from django.apps import AppConfig


class LocaliseConfig(AppConfig):
    name = "localise"
    verbose_name = "Numbers, money and dates in the reader's language"
