from django.urls import path

from games.people import live as people_live
from games.people import views as people_views
from games.practice import analysis_views, hint_views, stats_views, views

app_name = "games"

urlpatterns = [
    path("", views.choose_table, name="choose"),
    path("new/", views.create_table, name="table-create"),
    path("history/", views.list_hands, name="hand-list"),
    # A player's statistics across his sessions (games.practice.stats_views).
    path("statistics/", stats_views.show_statistics, name="statistics"),
    path(
        "seed/<slug:game>/<slug:rules>/<int:players>/<int:seed>/",
        views.show_seeded_deal,
        name="table-seed",
    ),
    path("<int:pk>/", views.show_table, name="table"),
    path("<int:pk>/act/", views.take_turn, name="table-act"),
    path("<int:pk>/next/", views.deal_next_hand, name="table-next"),
    path("<int:pk>/takeback/", views.take_back_decision, name="table-takeback"),
    path("<int:pk>/finish/", views.finish_game, name="table-finish"),
    path("<int:pk>/pace/", views.set_pace, name="table-pace"),
    path("<int:pk>/say/", views.say_trick_winner, name="table-say"),
    path("<int:pk>/leave/", views.leave_table, name="table-leave"),
    path("<int:pk>/coach/", views.ask_coach, name="table-coach"),
    path("<int:pk>/hand/<int:number>/", views.replay_hand, name="hand-replay"),
    path("<int:pk>/hand/<int:number>/review/", views.review_hand, name="hand-review"),
    # The analysis board and the hint on the table (issue 38: games.practice.analysis_views,
    # games.practice.hint_views).
    path(
        "<int:pk>/hand/<int:number>/board/<int:step>/",
        analysis_views.hand_board,
        name="hand-board",
    ),
    path("board/", analysis_views.set_up_board, name="board"),
    path("<int:pk>/hint/", hint_views.set_hint, name="table-hint"),
    path("shared/<str:token>/", views.show_shared_replay, name="shared-replay"),
    path("shared/<str:token>/play/", views.play_shared_deal, name="shared-play"),
    # Tables where people play together (games.people.views).
    path("people/", people_views.list_tables, name="people-list"),
    path("people/new/", people_views.open_table, name="people-new"),
    path("people/join/", people_views.join, name="people-join"),
    path("people/join/<str:code>/", people_views.join_code, name="people-join-code"),
    path("people/<int:pk>/", people_views.show_table, name="people-table"),
    path("people/<int:pk>/watch/", people_views.watch_table, name="people-watch"),
    path("people/<int:pk>/stream/", people_live.stream, name="people-stream"),
    path("people/<int:pk>/act/", people_views.act, name="people-act"),
    path("people/<int:pk>/start/", people_views.start, name="people-start"),
    path("people/<int:pk>/next/", people_views.next_hand, name="people-next"),
    path("people/<int:pk>/reveal/", people_views.reveal, name="people-reveal"),
    path("people/<int:pk>/back/", people_views.back, name="people-back"),
    path("people/<int:pk>/leave/", people_views.leave, name="people-leave"),
    path("people/<int:pk>/rematch/", people_views.rematch_table, name="people-rematch"),
    path("people/<int:pk>/remove/", people_views.remove_seat, name="people-remove"),
    path("people/<int:pk>/close/", people_views.close_table, name="people-close"),
    path("people/<int:pk>/say/", people_views.say_phrase, name="people-say"),
    path("people/<int:pk>/hand/<int:number>/", people_views.replay_hand, name="people-hand"),
]
