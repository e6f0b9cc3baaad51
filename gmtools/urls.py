from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from gmtools import views

urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/new/", views.campaign_create, name="campaign-create"),
    path("campaigns/<int:pk>/", views.table, name="table"),
    path("campaigns/<int:pk>/composer/", views.composer, name="composer"),
    path("campaigns/<int:pk>/odds/", views.odds, name="odds"),
    path("campaigns/<int:pk>/roll/", views.roll, name="roll"),
    path("campaigns/<int:pk>/log/", views.log, name="log"),
    path("campaigns/<int:pk>/characters/<int:character_pk>/adjust/", views.adjust, name="adjust"),
    path("campaigns/<int:pk>/characters/<int:character_pk>/rouse/", views.rouse, name="rouse"),
    path("campaigns/<int:pk>/rolls/<int:roll_pk>/reroll/", views.reroll, name="reroll"),
    path("campaigns/<int:pk>/rolls/<int:roll_pk>/invoke/", views.invoke, name="invoke"),
    path("campaigns/<int:pk>/rolls/<int:roll_pk>/reward/", views.reward, name="reward"),
    path("campaigns/<int:pk>/time/", views.time_action, name="time"),
    path("campaigns/<int:pk>/flip/", views.flip, name="flip"),
    path("campaigns/<int:pk>/turn-order/", views.turn_order, name="turn-order"),
    path("campaigns/<int:pk>/characters/<int:character_pk>/declare/", views.declare, name="declare"),
    path("campaigns/<int:pk>/extended/", views.extended_list, name="extended-list"),
    path("campaigns/<int:pk>/extended/new/", views.extended_create, name="extended-create"),
    path("campaigns/<int:pk>/extended/<int:action_pk>/stop/", views.extended_stop, name="extended-stop"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
