from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, register_converter

from gmtools import character_views
from gmtools import scene_views
from gmtools import mistakes, player_views, saved_roll_views, views
from gmtools.discord import views as discord_views
from gmtools.forms import LoginForm


class TokenConverter:
    """A player token's shape (URL-safe base64); anything else never reaches a query."""

    regex = "[A-Za-z0-9_-]{16,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")

urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/new/", views.campaign_create, name="campaign-create"),
    path("campaigns/<int:pk>/", views.table, name="table"),
    path("campaigns/<int:pk>/composer/", views.composer, name="composer"),
    path("campaigns/<int:pk>/odds/", views.odds, name="odds"),
    path("campaigns/<int:pk>/roll/", views.roll, name="roll"),
    path("campaigns/<int:pk>/log/", views.log, name="log"),
    path("campaigns/<int:pk>/luck/", views.luck, name="luck"),
    path("campaigns/<int:pk>/characters/<int:character_pk>/adjust/", views.adjust, name="adjust"),
    # A game's own: what its cards offer after a roll (BasePlay.follow_ups) and beside a character (checks).
    path("campaigns/<int:pk>/rolls/<int:roll_pk>/follow-up/<slug:kind>/", views.follow_up, name="follow-up"),
    path("campaigns/<int:pk>/characters/<int:character_pk>/check/<slug:kind>/", views.check, name="check"),
    path("campaigns/<int:pk>/ask-phone/", views.ask_phone, name="ask-phone"),
    path("campaigns/<int:pk>/time/", views.time_action, name="time"),
    path("campaigns/<int:pk>/flip/", views.flip, name="flip"),
    path("campaigns/<int:pk>/scene/change/<slug:kind>/", scene_views.scene_change, name="scene-change"),
    path("campaigns/<int:pk>/scene/notes/", scene_views.scene_notes, name="scene-notes"),
    path("campaigns/<int:pk>/composer/field/<slug:name>/", scene_views.composer_field, name="composer-field"),
    path("campaigns/<int:pk>/turn-order/", views.turn_order, name="turn-order"),
    path("campaigns/<int:pk>/characters/<int:character_pk>/declare/", views.declare, name="declare"),
    path("campaigns/<int:pk>/extended/", views.extended_list, name="extended-list"),
    path("campaigns/<int:pk>/extended/new/", views.extended_create, name="extended-create"),
    path("campaigns/<int:pk>/extended/<int:action_pk>/stop/", views.extended_stop, name="extended-stop"),
    path("campaigns/<int:pk>/rolls/<int:roll_pk>/reveal/", views.reveal, name="reveal"),
    path("campaigns/<int:pk>/rolls/<int:roll_pk>/void/", mistakes.void, name="void"),
    path("campaigns/<int:pk>/undo/", mistakes.undo, name="undo"),
    path("campaigns/<int:pk>/saved-rolls/new/", saved_roll_views.saved_roll_create, name="saved-roll-create"),
    path("campaigns/<int:pk>/saved-rolls/<int:saved_pk>/", saved_roll_views.saved_roll_use, name="saved-roll-use"),
    path("campaigns/<int:pk>/saved-rolls/<int:saved_pk>/delete/", saved_roll_views.saved_roll_delete,
         name="saved-roll-delete"),
    path("campaigns/<int:pk>/characters/new/", character_views.character_new, name="character-new"),
    path("campaigns/<int:pk>/characters/quick/", character_views.npc_quick, name="npc-quick"),
    path("campaigns/<int:pk>/characters/template/", character_views.npc_template, name="npc-template"),
    path("campaigns/<int:pk>/characters/import/", character_views.character_import, name="character-import"),
    path("campaigns/<int:pk>/characters/import/confirm/", character_views.character_import_confirm,
         name="character-import-confirm"),
    path("campaigns/<int:pk>/characters/<int:character_pk>/edit/", character_views.character_edit,
         name="character-edit"),
    path("campaigns/<int:pk>/characters/<int:character_pk>/delete/", character_views.character_delete,
         name="character-delete"),
    path("campaigns/<int:pk>/characters/<int:character_pk>/duplicate/", character_views.character_duplicate,
         name="character-duplicate"),
    path("campaigns/<int:pk>/characters/<int:character_pk>/copy/", character_views.character_copy,
         name="character-copy"),
    path("campaigns/<int:pk>/player-link/", views.player_link, name="player-link"),
    path("campaigns/<int:pk>/players-roll/", views.players_roll, name="players-roll"),
    path("campaigns/<int:pk>/characters/<int:character_pk>/player-link/", views.character_link, name="character-link"),
    path("campaigns/<int:pk>/export/", views.export, name="export"),
    path("campaigns/<int:pk>/stream/", views.stream, name="stream"),
    path("campaigns/<int:pk>/poll/", views.poll, name="poll"),
    # The campaign's settings from the table, and its Discord (issue 25).
    path("campaigns/<int:pk>/settings/", discord_views.campaign_settings, name="campaign-settings"),
    path("campaigns/<int:pk>/discord/health/", discord_views.health, name="discord-health"),
    path("campaigns/<int:pk>/discord/recap/", discord_views.post_recap, name="discord-recap"),
    path("p/<token:token>/", player_views.player, name="player"),
    path("p/<token:token>/tv/", player_views.player, {"tv": True}, name="player-tv"),
    path("p/<token:token>/log/", player_views.player_log, name="player-log"),
    path("p/<token:token>/recap.md", player_views.player_recap, name="player-recap"),
    path("p/<token:token>/luck/", player_views.player_luck, name="player-luck"),
    path("p/<token:token>/stream/", player_views.player_stream, name="player-stream"),
    path("p/<token:token>/poll/", player_views.player_poll, name="player-poll"),
    # A character's link (issue 24): its player rolls it (gmtools.player_rolls).
    path("p/<token:token>/odds/", player_views.player_odds, name="player-odds"),
    path("p/<token:token>/roll/", player_views.player_roll, name="player-roll"),
    path("p/<token:token>/rolls/<int:roll_pk>/follow-up/<slug:kind>/", player_views.player_follow_up,
         name="player-follow-up"),
    path("p/<token:token>/follow-ups/", player_views.player_follow_ups, name="player-follow-ups"),
    path("p/<token:token>/composer/field/<slug:name>/", player_views.player_composer_field, name="player-composer-field"),
    path("accounts/login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
