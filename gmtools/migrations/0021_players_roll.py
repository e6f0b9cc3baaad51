"""Players roll their own characters from the phone (issue 24): the campaign's switch, each character's
own player link (none until the GM makes one), and who rolled a roll from a phone (empty: the GM)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('gmtools', '0020_extended_action_traits'),
    ]

    operations = [
        migrations.AddField(
            model_name='campaign',
            name='players_roll',
            field=models.BooleanField(default=False, verbose_name='players roll their own characters'),
        ),
        migrations.AddField(
            model_name='character',
            name='player_token',
            field=models.CharField(blank=True, editable=False, max_length=64, null=True, verbose_name="player's link token"),
        ),
        migrations.AddConstraint(
            model_name='character',
            constraint=models.UniqueConstraint(fields=('player_token',), name='character_player_token_unique'),
        ),
        migrations.AddField(
            model_name='roll',
            name='rolled_by',
            field=models.CharField(blank=True, max_length=120, verbose_name='rolled by'),
        ),
    ]
