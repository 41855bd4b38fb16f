from django.conf import settings
from django.db import migrations


def read_again(apps, schema_editor):
    """Issue 27 reads digits of other scripts as ASCII digits (``bS١`` as ``bS1``) and a
    look-alike as the letters of its whole class: the keys whose reading changed, written
    again (names in plain ASCII keep theirs)."""
    from lessons.classes.models import username_key

    user_model = apps.get_model(settings.AUTH_USER_MODEL)
    keys = apps.get_model("classes", "UsernameKey")
    stored = dict(keys.objects.values_list("user_id", "key"))
    for pk, name in user_model.objects.values_list("pk", "username").iterator():
        key = username_key(name)
        if stored.get(pk) != key:
            keys.objects.update_or_create(user_id=pk, defaults={"key": key})


class Migration(migrations.Migration):
    dependencies = [
        ("classes", "0005_left_and_co_teachers"),
    ]

    operations = [
        migrations.RunPython(read_again, migrations.RunPython.noop),
    ]
