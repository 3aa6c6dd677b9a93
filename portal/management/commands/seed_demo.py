from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts.services import user_confirm_email
from forums.demo import seed_topics
from games.demo import seed_matches

DEMO_USERS = ["alice", "bob", "carol", "dave"]
DEMO_PASSWORD = "demo-password"


class Command(BaseCommand):
    help = (
        "Create the demo players (password 'demo-password'), finished rated matches in every game "
        "between them and the bots, a match being played and a few forum topics; each only once. "
        "On the embedded SQLite default only, also the staff account 'admin' with the same password. "
        "Refused with DJANGO_ENV=production."
    )

    def handle(self, *args, **options):
        if settings.PRODUCTION:
            raise CommandError(
                "seed_demo makes accounts with a published password and is refused with DJANGO_ENV=production. "
                "Create the first administrator with: manage.py createsuperuser"
            )
        User = get_user_model()
        for name in DEMO_USERS:
            user, created = User.objects.get_or_create(username=name, defaults={"email": f"{name}@example.com"})
            if created:
                user.set_password(DEMO_PASSWORD)
                user.bio = f"Demo player {name.title()}."
                user.save()
                user_confirm_email(user=user)
                self.stdout.write(f"created {name}")
        if not User.objects.filter(is_superuser=True).exists():
            if settings.EMBEDDED_DATABASE:
                admin = User.objects.create_superuser("admin", "admin@example.com", DEMO_PASSWORD)
                user_confirm_email(user=admin)
                self.stdout.write("created admin")
            else:
                self.stdout.write("no administrator made on this database: run manage.py createsuperuser")
        matches = seed_matches(DEMO_USERS)
        if matches:
            self.stdout.write(f"played {len(matches) - 1} demo matches; match #{matches[-1].pk} is being played")
        topics = seed_topics(DEMO_USERS)
        if topics:
            self.stdout.write(f"opened {len(topics)} forum topics")
