"""Views for playing practice hands. The rules live in games.loo; views only adapt them."""
