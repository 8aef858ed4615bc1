from django.db import migrations, models
from django.utils import timezone


def keep_log_ins(apps, schema_editor):
    """The log-ins of Django's own session table, moved here with whose each is:
    nobody is logged out by the upgrade."""
    from django.contrib.auth import SESSION_KEY

    from accounts.sessions import SessionStore

    Session = apps.get_model("sessions", "Session")
    LoginSession = apps.get_model("accounts", "LoginSession")
    store = SessionStore()
    rows = []
    for old in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        user_id = store.decode(old.session_data).get(SESSION_KEY)
        known = isinstance(user_id, str) and user_id.isascii() and user_id.isdigit()
        rows.append(
            LoginSession(
                session_key=old.session_key,
                session_data=old.session_data,
                expire_date=old.expire_date,
                user_id=int(user_id) if known else None,
            )
        )
    LoginSession.objects.bulk_create(rows, batch_size=500, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="LoginSession",
            fields=[
                (
                    "session_key",
                    models.CharField(
                        max_length=40, primary_key=True, serialize=False, verbose_name="session key"
                    ),
                ),
                ("session_data", models.TextField(verbose_name="session data")),
                ("expire_date", models.DateTimeField(db_index=True, verbose_name="expire date")),
                ("user_id", models.BigIntegerField(blank=True, db_index=True, null=True)),
                ("ended", models.BooleanField(default=False)),
            ],
            options={
                "verbose_name": "session",
                "verbose_name_plural": "sessions",
                "abstract": False,
                "indexes": [
                    models.Index(
                        condition=models.Q(("ended", True)),
                        fields=["ended"],
                        name="loginsession_ended",
                    )
                ],
            },
        ),
        migrations.RunPython(keep_log_ins, migrations.RunPython.noop),
    ]
