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
            name='ScifiState',
            fields=[
                ('campaign', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='%(app_label)s', serialize=False, to='gmtools.campaign', verbose_name='campaign')),
                ('adventure_open', models.BooleanField(default=False, help_text='While an adventure is open, the characters in it cannot take Off-Rol actions.', verbose_name='adventure open')),
            ],
            options={
                'verbose_name': 'On-Rol / Off-Rol',
                'verbose_name_plural': 'On-Rol / Off-Rol',
            },
        ),
        migrations.CreateModel(
            name='ScifiResources',
            fields=[
                ('character', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='%(app_label)s', serialize=False, to='gmtools.character', verbose_name='character')),
                ('action_slots', models.PositiveSmallIntegerField(default=2, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(4)], verbose_name='action slots per turn')),
                ('health', models.PositiveSmallIntegerField(default=10, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(99)], verbose_name='health')),
                ('health_max', models.PositiveSmallIntegerField(default=10, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(99)], verbose_name='maximum health')),
                ('in_adventure', models.BooleanField(default=False, help_text="Takes part in the campaign's adventure (On-Rol) when it is open.", verbose_name='in the adventure')),
            ],
            options={
                'verbose_name': 'Health, actions and distances',
                'verbose_name_plural': 'Health, actions and distances',
                'constraints': [models.CheckConstraint(condition=models.Q(('action_slots__gte', 1), ('action_slots__lte', 4)), name='scifi_action_slots_range'), models.CheckConstraint(condition=models.Q(('health__gte', 0), ('health__lte', 99)), name='scifi_health_range'), models.CheckConstraint(condition=models.Q(('health_max__gte', 1), ('health_max__lte', 99)), name='scifi_health_max_range'), models.CheckConstraint(condition=models.Q(('health__lte', models.F('health_max'))), name='scifi_health_within_max', violation_error_message='Health cannot exceed maximum health.')],
            },
        ),
        *moved('scifi', resources='ScifiResources', state='ScifiState'),
    ]
