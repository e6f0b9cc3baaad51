"""One click, one roll (issue 23): the composer's key of each roll it draws, unique in a campaign when set."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('gmtools', '0018_savedroll_names_by_language'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='roll',
            name='once_key',
            field=models.UUIDField(blank=True, editable=False, null=True, verbose_name='one-click key'),
        ),
        migrations.AddConstraint(
            model_name='roll',
            constraint=models.UniqueConstraint(condition=models.Q(('once_key__isnull', False)), fields=('campaign', 'once_key'), name='roll_once_per_key', violation_error_message='This roll was already made.'),
        ),
    ]
