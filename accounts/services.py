from .models import User


def user_update_bio(*, user: User, bio: str) -> User:
    user.bio = bio.strip()
    user.full_clean(exclude=["password"])
    user.save(update_fields=["bio"])
    return user
