"""A log entry's kind is a roll's or one its game names (a follow-up's, a check's): no list of every
game's kinds in the database; ``Roll.clean`` checks it against the game."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('gmtools', '0015_game_columns_to_their_games'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='roll',
            name='roll_kind_known',
        ),
        migrations.AlterField(
            model_name='roll',
            name='kind',
            field=models.SlugField(db_index=False, default='roll', max_length=10, verbose_name='kind'),
        ),
    ]
