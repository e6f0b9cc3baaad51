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
            name='V5Resources',
            fields=[
                ('character', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='%(app_label)s', serialize=False, to='gmtools.character', verbose_name='character')),
                ('hunger', models.PositiveSmallIntegerField(default=1, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(5)], verbose_name='Hunger')),
                ('humanity', models.PositiveSmallIntegerField(default=7, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(10)], verbose_name='Humanity')),
                ('blood_potency', models.PositiveSmallIntegerField(default=1, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(10)], verbose_name='Blood Potency')),
                ('health_superficial', models.PositiveSmallIntegerField(default=0, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(15)], verbose_name='Health: superficial damage')),
                ('health_aggravated', models.PositiveSmallIntegerField(default=0, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(15)], verbose_name='Health: aggravated damage')),
                ('willpower_superficial', models.PositiveSmallIntegerField(default=0, help_text='Spending 1 Willpower marks 1 superficial damage.', validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(15)], verbose_name='Willpower: superficial damage')),
                ('willpower_aggravated', models.PositiveSmallIntegerField(default=0, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(15)], verbose_name='Willpower: aggravated damage')),
            ],
            options={
                'verbose_name': 'Hunger, Humanity and trackers',
                'verbose_name_plural': 'Hunger, Humanity and trackers',
                'constraints': [models.CheckConstraint(condition=models.Q(('hunger__gte', 0), ('hunger__lte', 5)), name='v5_hunger_range'), models.CheckConstraint(condition=models.Q(('humanity__gte', 0), ('humanity__lte', 10)), name='v5_humanity_range'), models.CheckConstraint(condition=models.Q(('blood_potency__gte', 0), ('blood_potency__lte', 10)), name='v5_blood_potency_range'), models.CheckConstraint(condition=models.Q(('health_superficial__gte', 0), ('health_superficial__lte', 15)), name='v5_health_superficial_range'), models.CheckConstraint(condition=models.Q(('health_aggravated__gte', 0), ('health_aggravated__lte', 15)), name='v5_health_aggravated_range'), models.CheckConstraint(condition=models.Q(('willpower_superficial__gte', 0), ('willpower_superficial__lte', 15)), name='v5_willpower_superficial_range'), models.CheckConstraint(condition=models.Q(('willpower_aggravated__gte', 0), ('willpower_aggravated__lte', 15)), name='v5_willpower_aggravated_range')],
            },
        ),
        *moved('v5', resources='V5Resources'),
    ]
