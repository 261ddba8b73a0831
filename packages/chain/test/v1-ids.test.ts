import { describe, expect, it } from 'vitest';
import { v1CollectionId, v1TokenDataId } from '../src/index';

describe('token v1 ids (sha256 of creator::collection::name, creator in long form)', () => {
  // Values from the official token_v2_processor rows of transaction 1058723093 (README §4).
  const creator = '0x092d2f7ad00630e4dfffcca01bee12c84edf004720347fb1fd57016d2cc8d3f8';

  it('hashes the token data id', () => {
    expect(v1TokenDataId(creator, 'Galxe OAT', 'Aptos CIS x Joule Finance')).toBe(
      '0xc00d409177c3265544651b938d857a7675afe57fb4d276a37bcc18ecbecd0dac',
    );
  });

  it('hashes the collection id', () => {
    expect(v1CollectionId(creator, 'Galxe OAT')).toBe(
      '0x2ae74f6f02bb77746263f3f32b17a4ea3196b467029c588b323d136af0c45cd4',
    );
  });

  it('pads a creator whose leading zero was stripped, as Move values render it', () => {
    const stripped = '0x92d2f7ad00630e4dfffcca01bee12c84edf004720347fb1fd57016d2cc8d3f8';
    expect(v1TokenDataId(stripped, 'Galxe OAT', 'Aptos CIS x Joule Finance')).toBe(
      v1TokenDataId(creator, 'Galxe OAT', 'Aptos CIS x Joule Finance'),
    );
    expect(v1CollectionId(stripped.toUpperCase().replace('0X', '0x'), 'Galxe OAT')).toBe(
      v1CollectionId(creator, 'Galxe OAT'),
    );
  });

  it('hashes names as UTF-8', () => {
    expect(v1TokenDataId('0x1', 'Make Every M🌐ve Count.', 'é')).toMatch(/^0x[0-9a-f]{64}$/);
    expect(v1TokenDataId('0x1', 'a', 'é')).not.toBe(v1TokenDataId('0x1', 'a', 'e'));
  });
});
