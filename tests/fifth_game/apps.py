from gmtools.games.base.apps import GameConfig


class D6PoolConfig(GameConfig):
    default = True  # beside the GameConfig it imports
    name = "tests.fifth_game"
    label = "d6pool"  # the game's id
    verbose_name = "D6 pool"
