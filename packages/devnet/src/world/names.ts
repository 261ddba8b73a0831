/** Word lists for readable, seed-stable names. */
export const ADJECTIVES = [
  'Cosmic',
  'Pixel',
  'Neon',
  'Lazy',
  'Golden',
  'Shadow',
  'Frosty',
  'Electric',
  'Velvet',
  'Rusty',
  'Lunar',
  'Solar',
  'Tiny',
  'Mighty',
  'Quantum',
  'Crimson',
  'Silent',
  'Wild',
  'Ancient',
  'Retro',
];

export const NOUNS = [
  'Otters',
  'Wizards',
  'Sloths',
  'Apes',
  'Foxes',
  'Knights',
  'Owls',
  'Robots',
  'Dragons',
  'Cats',
  'Bears',
  'Samurai',
  'Aliens',
  'Frogs',
  'Whales',
  'Ghosts',
  'Penguins',
  'Wolves',
  'Monks',
  'Koalas',
];

export const LOOTBOX_NOUNS = ['Capsules', 'Crates', 'Eggs', 'Chests', 'Orbs', 'Relics', 'Seeds', 'Shards'];

export const TRAIT_TYPES: readonly { key: string; values: readonly string[] }[] = [
  { key: 'Background', values: ['Blue', 'Cream', 'Mint', 'Sunset', 'Void', 'Aurora', 'Gold', 'Galaxy'] },
  { key: 'Body', values: ['Tan', 'Grey', 'Brown', 'Zombie', 'Robot', 'Crystal', 'Lava'] },
  {
    key: 'Eyes',
    values: ['Happy', 'Sleepy', 'Angry', 'Laser', 'Wink', 'Hypno', 'Diamond', 'Closed', 'Star'],
  },
  { key: 'Mouth', values: ['Smile', 'Grin', 'Pipe', 'Tongue', 'Gold Teeth', 'Bubblegum'] },
  { key: 'Headwear', values: ['Beanie', 'Crown', 'Halo', 'Cap', 'Helmet', 'Wizard Hat', 'Horns', 'Bandana'] },
  { key: 'Clothes', values: ['Hoodie', 'Suit', 'Armor', 'Kimono', 'Tank Top', 'Robe', 'Jersey'] },
  { key: 'Accessory', values: ['Chain', 'Earring', 'Monocle', 'Scarf', 'Watch'] },
  { key: 'Aura', values: ['Fire', 'Ice', 'Lightning', 'Shadow'] },
];

export const TIER_NAMES = ['Common', 'Uncommon', 'Rare', 'Epic', 'Legendary'];
