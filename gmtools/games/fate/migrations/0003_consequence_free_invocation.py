"""Fate Core's free invocation of a consequence for whoever inflicted it (issue 23): who that is, per
consequence; nobody on every consequence already taken."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('fate', '0002_aspect'),
        ('gmtools', '0019_roll_once_key'),
    ]

    operations = [
        migrations.AddField(
            model_name='fateresources',
            name='consequence_mild_free_for',
            field=models.ForeignKey(blank=True, help_text='Whoever inflicted it: their next invocation of it costs no fate point (once).', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='gmtools.character', verbose_name='mild: free invocation for'),
        ),
        migrations.AddField(
            model_name='fateresources',
            name='consequence_moderate_free_for',
            field=models.ForeignKey(blank=True, help_text='Whoever inflicted it: their next invocation of it costs no fate point (once).', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='gmtools.character', verbose_name='moderate: free invocation for'),
        ),
        migrations.AddField(
            model_name='fateresources',
            name='consequence_severe_free_for',
            field=models.ForeignKey(blank=True, help_text='Whoever inflicted it: their next invocation of it costs no fate point (once).', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='gmtools.character', verbose_name='severe: free invocation for'),
        ),
    ]
