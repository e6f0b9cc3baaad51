"""Fate's aspects move from the core's app to Fate's (issue 21): the rows stay where they are, ids
and all; the model is declared here on the core's table, whose name becomes Fate's."""

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('fate', '0001_initial'),
        ('gmtools', '0016_roll_kinds_are_the_games'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Aspect',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('high_concept', 'High concept'), ('trouble', 'Trouble'), ('other', 'Other')], default='other', max_length=12, verbose_name='kind')),
                        ('text', models.CharField(max_length=200, verbose_name='aspect')),
                        ('free_invocations', models.PositiveSmallIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(9)], verbose_name='free invocations')),
                        ('boost', models.BooleanField(default=False, help_text='Gone once invoked.', verbose_name='boost')),
                        ('character', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='aspects', to='gmtools.character', verbose_name='character')),
                        ('scene', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='aspects', to='gmtools.scene', verbose_name='scene')),
                    ],
                    options={
                        'verbose_name': 'aspect',
                        'verbose_name_plural': 'aspects',
                        'ordering': ['id'],
                        'db_table': 'gmtools_aspect',
                        'constraints': [models.CheckConstraint(condition=models.Q(('kind__in', ['high_concept', 'trouble', 'other'])), name='aspect_kind_known'), models.CheckConstraint(condition=models.Q(('text', ''), _negated=True), name='aspect_text_not_empty'), models.CheckConstraint(condition=models.Q(('character__isnull', False), ('scene__isnull', False), _connector='OR'), name='aspect_of_a_character_or_a_scene'), models.CheckConstraint(condition=models.Q(('free_invocations__gte', 0), ('free_invocations__lte', 9)), name='aspect_free_invocations_range'), models.UniqueConstraint(condition=models.Q(('kind__in', ['high_concept', 'trouble'])), fields=('character', 'kind'), name='aspect_one_high_concept_and_trouble', violation_error_message='A character has one high concept and one trouble.')],
                    },
                ),
            ],
        ),
        # gmtools_aspect becomes fate_aspect (its constraints keep their names).
        migrations.AlterModelTable(name='aspect', table=None),
    ]
