"""Fate's aspects are Fate's (issue 21): the core's app forgets the model, whose table Fate's app
took over, rows and all (gmtools/games/fate/migrations/0002_aspect.py)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('gmtools', '0016_roll_kinds_are_the_games'),
        ('fate', '0002_aspect'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='Aspect')],
        ),
    ]
