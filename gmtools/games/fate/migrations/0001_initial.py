import django.core.validators
import django.db.models.deletion
from django.db import migrations, models

from gmtools.games.base.columns_moved import moved


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('gmtools', '0014_extended_tie_break'),
    ]
    # The shared columns this copies are dropped by the core's next migration.
    run_before = [('gmtools', '0015_game_columns_to_their_games')]

    operations = [
        migrations.CreateModel(
            name='FateState',
            fields=[
                ('campaign', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='%(app_label)s', serialize=False, to='gmtools.campaign', verbose_name='campaign')),
                ('uses_deck', models.BooleanField(default=False, help_text='Draw a card from the 81-card Fate deck instead of rolling four Fate dice.', verbose_name='draw from the Fate deck')),
                ('deck', models.JSONField(blank=True, default=list, help_text='The indices (0-80) of the cards not yet drawn, next card first; an empty deck is shuffled at the next draw.', verbose_name='Fate deck cards left')),
            ],
            options={
                'verbose_name': 'Fate deck',
                'verbose_name_plural': 'Fate deck',
            },
        ),
        migrations.CreateModel(
            name='FateResources',
            fields=[
                ('character', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='%(app_label)s', serialize=False, to='gmtools.character', verbose_name='character')),
                ('points', models.PositiveSmallIntegerField(default=3, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(99)], verbose_name='fate points')),
                ('refresh', models.PositiveSmallIntegerField(default=3, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(10)], verbose_name='refresh')),
                ('stress_1', models.BooleanField(default=False, verbose_name='stress box 1')),
                ('stress_2', models.BooleanField(default=False, verbose_name='stress box 2')),
                ('stress_3', models.BooleanField(default=False, verbose_name='stress box 3')),
                ('consequence_mild', models.CharField(blank=True, max_length=120, verbose_name='mild consequence (2)')),
                ('consequence_moderate', models.CharField(blank=True, max_length=120, verbose_name='moderate consequence (4)')),
                ('consequence_severe', models.CharField(blank=True, max_length=120, verbose_name='severe consequence (6)')),
            ],
            options={
                'verbose_name': 'Fate points, stress and consequences',
                'verbose_name_plural': 'Fate points, stress and consequences',
                'constraints': [models.CheckConstraint(condition=models.Q(('points__gte', 0), ('points__lte', 99)), name='fate_points_range'), models.CheckConstraint(condition=models.Q(('refresh__gte', 1), ('refresh__lte', 10)), name='fate_refresh_range')],
            },
        ),
        *moved('fate', resources='FateResources', state='FateState'),
    ]
