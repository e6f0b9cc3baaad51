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
            name='ExaltedResources',
            fields=[
                ('character', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='%(app_label)s', serialize=False, to='gmtools.character', verbose_name='character')),
                ('essence', models.PositiveSmallIntegerField(default=1, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(10)], verbose_name='Essence')),
                ('willpower', models.PositiveSmallIntegerField(default=5, help_text='The dots; Willpower rolls use these.', validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(10)], verbose_name='Willpower (permanent)')),
                ('willpower_temporary', models.PositiveSmallIntegerField(default=5, help_text='The boxes, spent for automatic successes.', validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(10)], verbose_name='Willpower (temporary)')),
                ('motes', models.PositiveSmallIntegerField(default=0, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100)], verbose_name='personal motes')),
                ('motes_max', models.PositiveSmallIntegerField(default=0, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100)], verbose_name='personal mote pool')),
                ('compassion', models.PositiveSmallIntegerField(default=1, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(5)], verbose_name='Compassion')),
                ('conviction', models.PositiveSmallIntegerField(default=1, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(5)], verbose_name='Conviction')),
                ('temperance', models.PositiveSmallIntegerField(default=1, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(5)], verbose_name='Temperance')),
                ('valor', models.PositiveSmallIntegerField(default=1, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(5)], verbose_name='Valor')),
                ('limit', models.PositiveSmallIntegerField(default=0, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(10)], verbose_name='Limit')),
            ],
            options={
                'verbose_name': 'Personality traits and Essence',
                'verbose_name_plural': 'Personality traits and Essence',
                'constraints': [models.CheckConstraint(condition=models.Q(('essence__gte', 1), ('essence__lte', 10)), name='exalted_essence_range'), models.CheckConstraint(condition=models.Q(('willpower__gte', 1), ('willpower__lte', 10)), name='exalted_willpower_range'), models.CheckConstraint(condition=models.Q(('willpower_temporary__gte', 0), ('willpower_temporary__lte', 10)), name='exalted_willpower_temporary_range'), models.CheckConstraint(condition=models.Q(('motes__gte', 0), ('motes__lte', 100)), name='exalted_motes_range'), models.CheckConstraint(condition=models.Q(('motes_max__gte', 0), ('motes_max__lte', 100)), name='exalted_motes_max_range'), models.CheckConstraint(condition=models.Q(('compassion__gte', 1), ('compassion__lte', 5)), name='exalted_compassion_range'), models.CheckConstraint(condition=models.Q(('conviction__gte', 1), ('conviction__lte', 5)), name='exalted_conviction_range'), models.CheckConstraint(condition=models.Q(('temperance__gte', 1), ('temperance__lte', 5)), name='exalted_temperance_range'), models.CheckConstraint(condition=models.Q(('valor__gte', 1), ('valor__lte', 5)), name='exalted_valor_range'), models.CheckConstraint(condition=models.Q(('limit__gte', 0), ('limit__lte', 10)), name='exalted_limit_range'), models.CheckConstraint(condition=models.Q(('willpower_temporary__lte', models.F('willpower'))), name='exalted_willpower_temporary_within_permanent', violation_error_message='Temporary Willpower cannot exceed permanent Willpower.'), models.CheckConstraint(condition=models.Q(('motes__lte', models.F('motes_max'))), name='exalted_motes_within_pool', violation_error_message='Personal motes cannot exceed the personal mote pool.')],
            },
        ),
        *moved('exalted', resources='ExaltedResources'),
    ]
