from .models import User


def bot_accounts_of(owner: User) -> list[User]:
    """The person's own bot accounts, oldest first."""
    if not owner.is_authenticated:
        return []
    return list(User.objects.filter(owner=owner, is_bot=True).order_by("date_joined", "pk"))
