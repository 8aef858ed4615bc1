from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies: list[tuple[str, str]] = []

    operations = [
        migrations.CreateModel(
            name="OwnerVersion",
            fields=[
                ("owner_id", models.BigIntegerField(primary_key=True, serialize=False)),
                ("value", models.BigIntegerField(default=0)),
            ],
        ),
        migrations.CreateModel(
            name="LoginFailures",
            fields=[
                ("key", models.CharField(max_length=80, primary_key=True, serialize=False)),
                ("count", models.PositiveIntegerField(default=0)),
                ("until", models.FloatField(db_index=True)),
            ],
            options={"verbose_name_plural": "login failures"},
        ),
    ]
