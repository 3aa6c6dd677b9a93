"""Sign-up now confirms the e-mail address before the account can log in on the site. The
accounts made before that keep logging in as they did: their addresses count as confirmed."""

from django.db import migrations


def confirm_existing_addresses(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    taken = {email.lower() for email in EmailAddress.objects.filter(verified=True).values_list("email", flat=True)}
    for user in User.objects.exclude(email="").order_by("pk"):
        email = user.email.lower()
        if email in taken:  # one confirmed owner per address
            continue
        taken.add(email)
        address = EmailAddress.objects.filter(user=user, email__iexact=email).first()
        if address is not None:
            address.verified = True
            address.save(update_fields=["verified"])
        else:
            has_primary = EmailAddress.objects.filter(user=user, primary=True).exists()
            EmailAddress.objects.create(user=user, email=email, verified=True, primary=not has_primary)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(confirm_existing_addresses, migrations.RunPython.noop)]
