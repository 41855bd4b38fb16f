"""Find the deals of the course's guided hands and store them in ``content/guided.json``."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from lessons.content import ContentError, default_path
from lessons.course.deals import FILE, Deal, Deals, DealsError, Setup, search_all
from lessons.course.loader import guided_setups


class Command(BaseCommand):
    help = (
        "Find a deal for each guided hand of content/lessons.txt, under each rule set its lesson "
        "offers, in which the lesson's rule comes up on every legal line of the learner (every "
        "declaration, exchange and card he may play, the computer players replying as at the "
        "table), and store it in content/guided.json with what its proof covered (the loader "
        "trusts a proof made under the engine as it is, and never searches). Without "
        "arguments: the guided hands with no stored deal, or whose deal no longer brings the "
        "rule up on every line (a deal still proved, under an engine changed since, has its "
        "proof stored again). Run it after changing a guided hand, or when loadcontent names one."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("keys", nargs="*", help="guided hands to search again, by their id")
        parser.add_argument(
            "--all", dest="everything", action="store_true", help="search every guided hand again"
        )
        parser.add_argument(
            "--path",
            type=Path,
            default=None,
            help="The content folder (default: content/ at the top of the repository).",
        )

    def handle(
        self, *args: Any, keys: list[str], everything: bool, path: Path | None, **_: Any
    ) -> None:
        root = path if path is not None else default_path()
        lessons = root / "lessons.txt"
        where = str(Path(root.name) / "lessons.txt")
        if not lessons.is_file():
            raise CommandError(f"{where}: no such file (a content folder holds lessons.txt)")
        try:
            found = guided_setups(lessons.read_text(encoding="utf-8"), where)
            deals = Deals.read(root / FILE)
        except (ContentError, DealsError) as error:
            raise CommandError(str(error)) from None
        lines = {setup.key: b.line_of("rule") for b, setup in found}
        unknown = sorted(set(keys) - set(lines))
        if unknown:
            raise CommandError(f"no guided hand {', '.join(repr(k) for k in unknown)} in {where}")
        setups = [setup for _, setup in found]
        wanted = set(lines) if everything else set(keys) if keys else None

        def report(setup: Setup, deal: Deal) -> None:
            told = "during the hand" if deal.during else "during the hand or when it is over"
            self.stdout.write(
                f"{where}:{lines[setup.key]}: {setup.key} under {setup.preset}: seed "
                f"{deal.seed} ({setup.rule} comes up {told} on each of the learner's "
                f"{deal.proof['lines']} lines)"
            )

        failed = search_all(deals, setups, wanted, report)
        deals.keep_only(setups)
        deals.write()
        if failed:
            raise CommandError(
                "\n".join(
                    f"{where}:{lines[s.key]}: under {s.preset}, {s.rule!r} does not come up on "
                    f"every legal line of the learner in any of {s.tries} deals"
                    f"{' from this stacked deal' if s.dealer is not None else ''}: choose "
                    f"another rule{' or deal' if s.dealer is not None else ''}, a start or "
                    f"options where the learner must play, or leave {s.preset} out of the "
                    "lesson's 'presets:'"
                    for s in failed
                )
            )
        self.stdout.write(f"{root.name}/{FILE}: {len(setups)} deals stored.")
