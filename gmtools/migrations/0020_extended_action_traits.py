"""An extended action keeps the traits it is rolled with (issue 23): picking it in the composer selects
them. Empty on every action already made: its next roll with traits fills them."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('gmtools', '0019_roll_once_key'),
    ]

    operations = [
        migrations.AddField(
            model_name='extendedaction',
            name='first',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='gmtools.trait', verbose_name='first trait'),
        ),
        migrations.AddField(
            model_name='extendedaction',
            name='second',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='gmtools.trait', verbose_name='second trait'),
        ),
    ]
